//go:build linux

package proc

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShebang(t *testing.T) {
	t.Parallel()
	long := "/" + strings.Repeat("x", 300)
	cases := []struct {
		name, head string
		prefix     []string
		ok         bool
	}{
		{"plain", "#!/bin/sh\necho\n", []string{"/bin/sh"}, true},
		{"argument", "#!/usr/bin/env node\n", []string{"/usr/bin/env", "node"}, true},
		{"one argument with spaces in it", "#! /usr/bin/env  -S node --x \t\n", []string{"/usr/bin/env", "-S node --x"}, true},
		{"leading tabs, trailing blanks", "#!\t/bin/sh \t \n", []string{"/bin/sh"}, true},
		{"carriage return is part of the name", "#!/bin/sh\r\n", []string{"/bin/sh\r"}, true},
		{"argument ends at NUL", "#!/bin/sh -e\x00x\n", []string{"/bin/sh", "-e"}, true},
		{"no newline, short file", "#!/bin/sh", []string{"/bin/sh"}, true},
		{"no newline, short file with argument", "#!/bin/sh -x", []string{"/bin/sh", "-x"}, true},
		{"no newline, a blank then NULs: an empty argument", "#!/bin/sh ", []string{"/bin/sh", ""}, true},
		{"not a script", "\x7fELF", nil, false},
		{"only #!: an empty name, which the kernel then cannot open", "#!", []string{""}, true},
		{"only blanks", "#!  \t \n", nil, false},
		{"interpreter cut off by the buffer", "#!" + long, nil, false},
		{"blanks then a name cut off", "#!   " + long, nil, false},
		{"name then a long argument cut by the buffer", "#!/bin/sh " + long, []string{"/bin/sh", long[:shebangBuf-len("#!/bin/sh ")-1]}, true},
	}
	for _, c := range cases {
		prefix, ok := shebang([]byte(c.head))
		if !cmp.Equal(prefix, c.prefix) || ok != c.ok {
			t.Errorf("%s: shebang(%q) = %q, %v; want %q, %v", c.name, c.head, prefix, ok, c.prefix, c.ok)
		}
	}
}

// FuzzShebang holds shebang to the kernel itself: each input becomes the #! line of a
// script whose interpreter is the test binary (in "argshex" mode, printing the
// arguments it got byte for byte), and the kernel's start of that script must match the prediction: started
// with [arg, script] when shebang names the test binary, not started otherwise.
func FuzzShebang(f *testing.F) {
	for _, seed := range []struct{ pre, post string }{
		{"", "\n"}, {" ", " -x\n"}, {"\t", "\t-a b \t\n"}, {"", "\r\n"}, {"", " a\x00b\n"},
		{"", ""}, {"", " " + strings.Repeat("y", 300)}, {"", "x\n"}, {"", "\x00 -a\n"},
	} {
		f.Add([]byte(seed.pre), []byte(seed.post))
	}
	self := helperPath(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, pre, post []byte) {
		blanks := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return r
			}
			return -1
		}, string(pre))
		head := append([]byte("#!"+blanks+self), post...)
		prefix, ok := shebang(head)
		script := filepath.Join(dir, "script")
		os.Remove(script)
		if err := os.WriteFile(script, head, 0o755); err != nil {
			t.Fatal(err)
		}
		out, err := kernelStart(script)
		if !ok || prefix[0] != self {
			if err == nil {
				t.Fatalf("#! line %q: predicted no start of the test binary (%q, ok %v), but it ran: %s", head, prefix, ok, out)
			}
			return
		}
		if err != nil {
			t.Fatalf("#! line %q: predicted %q, but the kernel did not start it: %v", head, prefix, err)
		}
		want := append(prefix[1:], script)
		var hexed []string
		if err := json.Unmarshal(out, &hexed); err != nil {
			t.Fatalf("helper output %q: %v", out, err)
		}
		got := make([]string, len(hexed))
		for i, h := range hexed {
			b, err := hex.DecodeString(h)
			if err != nil {
				t.Fatalf("helper output %q: %v", out, err)
			}
			got[i] = string(b)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("#! line %q: arguments (-predicted +kernel):\n%s", head, d)
		}
	})
}

// kernelStart has the kernel start script and returns what it printed. A script just
// written can briefly be open for writing in a child another test is forking (ETXTBSY).
func kernelStart(script string) ([]byte, error) {
	for {
		c := exec.Command(script)
		c.Env = helperEnvFor("argshex")
		out, err := c.Output()
		if !errors.Is(err, syscall.ETXTBSY) {
			return out, err
		}
	}
}
