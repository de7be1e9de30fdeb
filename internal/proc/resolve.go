package proc

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
)

// PathResolver resolves bare tool names against PATH read through Getenv
// (docs/process-runner.md §2). It never consults the current directory; on Windows it
// never consults PATHEXT and never yields .bat/.cmd files. It does not use
// exec.LookPath.
type PathResolver struct {
	// Getenv reads PATH (and, on Windows, variables referenced by PATH entries). nil
	// means os.Getenv; handlers pass env.Getenv so per-call environments are honoured.
	Getenv func(string) string
}

// NewResolver returns a PathResolver reading the environment through getenv (nil means
// os.Getenv).
func NewResolver(getenv func(string) string) PathResolver {
	return PathResolver{Getenv: getenv}
}

var _ Resolver = PathResolver{}

func (r PathResolver) getenv(k string) string {
	if r.Getenv == nil {
		return os.Getenv(k)
	}
	return r.Getenv(k)
}

// Resolve returns the absolute path of name, or false. Blank input resolves to
// nothing; a relative name with a directory component is never interpreted against a
// cwd.
func (r PathResolver) Resolve(name string) (string, bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", false
	}
	return r.resolve(name)
}

// isExecutableFile reports whether path names an existing file (links followed) that
// the platform would run.
func isExecutableFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && executableMode(fi)
}

// SamePath reports whether a and b are both absolute, both exist as files
// after every link is resolved, and name the same resolved path under the platform's
// case rule (contain.Same: case-insensitively on Windows only).
func SamePath(a, b string) bool {
	if !filepath.IsAbs(a) || !filepath.IsAbs(b) {
		return false
	}
	ra, ok := realFile(a)
	if !ok {
		return false
	}
	rb, ok := realFile(b)
	if !ok {
		return false
	}
	return contain.Same(ra, rb)
}

func realFile(p string) (string, bool) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	r, err = filepath.Abs(r)
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(r)
	if err != nil || !fileLike(fi) {
		return "", false
	}
	return filepath.Clean(r), true
}
