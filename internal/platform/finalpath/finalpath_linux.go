package finalpath

import (
	"errors"
	"os"
	"strconv"
	"strings"
)

// of reads the kernel's magic link for the descriptor, which names the file as it is
// reachable now (a deleted one ends in " (deleted)", which is refused).
func of(f *os.File) (string, error) {
	p, err := os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(f.Fd()), 10))
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, " (deleted)") {
		return "", errors.New("the file has no path any more")
	}
	return p, nil
}
