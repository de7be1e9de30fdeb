package proc

import (
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/finalpath"
)

func TestValidIdentity(t *testing.T) {
	hex64 := strings.Repeat("ab", 32)
	tests := []struct {
		kind, sha string
		want      bool
	}{
		{"file", hex64, true},
		{"app_execution_alias", hex64, true},
		{"powershell_script", hex64, true},
		{"file", strings.ToUpper(hex64), true},
		{"File", hex64, false},
		{"batch", hex64, false},
		{"", hex64, false},
		{"file", hex64[:63], false},
		{"file", hex64 + "a", false},
		{"file", strings.Repeat("g", 64), false},
		{"file", "", false},
	}
	for _, tc := range tests {
		if got := ValidIdentity(tc.kind, tc.sha); got != tc.want {
			t.Errorf("ValidIdentity(%q, %q) = %v, want %v", tc.kind, tc.sha, got, tc.want)
		}
	}
}

func TestIdentityEqual(t *testing.T) {
	a := strings.Repeat("0a", 32)
	tests := []struct {
		name string
		x, y Identity
		want bool
	}{
		{"same", Identity{KindFile, a}, Identity{KindFile, a}, true},
		{"case-insensitive sha", Identity{KindFile, a}, Identity{KindFile, strings.ToUpper(a)}, true},
		{"kind differs", Identity{KindFile, a}, Identity{KindPowerShellScript, a}, false},
		{"sha differs", Identity{KindFile, a}, Identity{KindFile, strings.Repeat("0b", 32)}, false},
		{"invalid never equal", Identity{KindFile, "x"}, Identity{KindFile, "x"}, false},
		{"zero values", Identity{}, Identity{}, false},
	}
	for _, tc := range tests {
		if got := tc.x.Equal(tc.y); got != tc.want {
			t.Errorf("%s: Equal = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestKindMatchesPath(t *testing.T) {
	tests := []struct {
		kind IdentityKind
		path string
		want bool
	}{
		{KindPowerShellScript, `C:\x\shim.ps1`, true},
		{KindPowerShellScript, `C:\x\shim.PS1`, true},
		{KindFile, `C:\x\shim.ps1`, false},
		{KindPowerShellScript, `C:\x\tool.exe`, false},
		{KindFile, `C:\x\tool.exe`, true},
		{KindAppExecutionAlias, `C:\x\winget.exe`, true},
		{KindAppExecutionAlias, `C:\x\winget.ps1`, false},
	}
	for _, tc := range tests {
		if got := kindMatchesPath(tc.kind, tc.path); got != tc.want {
			t.Errorf("kindMatchesPath(%s, %q) = %v, want %v", tc.kind, tc.path, got, tc.want)
		}
	}
}

// TestFinalPathMatches: the prefix rule itself is internal/platform/finalpath's
// TestStripVerbatim.
func TestFinalPathMatches(t *testing.T) {
	match := []struct {
		requested, final string
		want             bool
	}{
		{`C:\Tools\x.exe`, `\\?\C:\Tools\x.exe`, true},
		{`c:\tools\X.EXE`, `\\?\C:\Tools\x.exe`, true},
		{`\\srv\share\x.exe`, `\\?\UNC\srv\share\x.exe`, true},
		{`C:\Link\x.exe`, `\\?\D:\Target\x.exe`, false},
		{`C:\Tools\x.exe`, `\\?\C:\Tools\x.exe.bak`, false},
		{``, ``, false},
	}
	for _, tc := range match {
		if got := finalPathMatches(tc.requested, tc.final); got != tc.want {
			t.Errorf("finalPathMatches(%q, %q) = %v, want %v", tc.requested, tc.final, got, tc.want)
		}
	}
}

func FuzzFinalPathMatches(f *testing.F) {
	f.Add(`C:\Tools\x.exe`, `\\?\C:\Tools\x.exe`)
	f.Add(`\\srv\share\x`, `\\?\UNC\srv\share\x`)
	f.Add(`C:\a`, `\\?\C:\b`)
	f.Fuzz(func(t *testing.T, requested, final string) {
		got := finalPathMatches(requested, final)
		// Symmetric and reflexive on non-empty stripped paths; never matches different
		// paths that are not case variants of each other.
		if got != finalPathMatches(final, requested) {
			t.Fatalf("not symmetric: %q %q", requested, final)
		}
		a := strings.TrimRight(finalpath.StripVerbatim(requested), `\`)
		b := strings.TrimRight(finalpath.StripVerbatim(final), `\`)
		if got && !strings.EqualFold(a, b) {
			t.Fatalf("matched %q and %q", a, b)
		}
	})
}

func TestReparseTag(t *testing.T) {
	le := func(tag uint32, dataLen uint16, total int) []byte {
		b := make([]byte, total)
		b[0], b[1], b[2], b[3] = byte(tag), byte(tag>>8), byte(tag>>16), byte(tag>>24)
		b[4], b[5] = byte(dataLen), byte(dataLen>>8)
		return b
	}
	tests := []struct {
		name    string
		buf     []byte
		want    uint32
		wantErr bool
	}{
		{"app exec link", le(ioReparseTagAppExecLink, 4, 12), ioReparseTagAppExecLink, false},
		{"symlink tag", le(0xA000000C, 0, 8), 0xA000000C, false},
		{"short header", []byte{1, 2, 3}, 0, true},
		{"data length beyond buffer", le(ioReparseTagAppExecLink, 100, 12), 0, true},
		{"over 16 KiB", le(ioReparseTagAppExecLink, 0, maxReparseBuffer+1), 0, true},
	}
	for _, tc := range tests {
		got, err := reparseTag(tc.buf)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("%s: reparseTag = %#x, %v; want %#x, err %v", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
}

func FuzzReparseTag(f *testing.F) {
	f.Add([]byte{0x1b, 0, 0, 0x80, 4, 0, 0, 0, 1, 2, 3, 4})
	f.Add([]byte{})
	f.Add([]byte{0x0c, 0, 0, 0xa0, 0xff, 0xff, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		tag, err := reparseTag(b)
		if err != nil {
			return
		}
		if len(b) < 8 || len(b) > maxReparseBuffer {
			t.Fatalf("accepted a %d-byte buffer", len(b))
		}
		if tag != uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24 {
			t.Fatalf("tag %#x does not match header", tag)
		}
	})
}

func TestExpandPercent(t *testing.T) {
	env := map[string]string{"ROOT": `C:\Tools`, "EMPTY": "", "A": "x", "SystemRoot": `C:\Windows`}
	getenv := func(k string) string { return env[k] }
	tests := []struct{ in, want string }{
		{`%ROOT%\bin`, `C:\Tools\bin`},
		{`no vars`, `no vars`},
		{`%MISSING%\bin`, `%MISSING%\bin`},
		{`%EMPTY%\bin`, `%EMPTY%\bin`},
		{`50%`, `50%`},
		{`%%A%`, `%x`},
		{`%A%%A%`, `xx`},
		{`100% %ROOT%`, `100% C:\Tools`},
		// The PATH entries tools/internal/discovery expands with it.
		{`%SystemRoot%\System32`, `C:\Windows\System32`},
		{`%Missing%\x`, `%Missing%\x`},
		{`%EMPTY%\x`, `%EMPTY%\x`},
		{`%%`, `%%`},
		{`a%SystemRoot%b%SystemRoot%`, `aC:\WindowsbC:\Windows`},
	}
	for _, tc := range tests {
		if got := ExpandPercent(tc.in, getenv); got != tc.want {
			t.Errorf("ExpandPercent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzExpandPercent(f *testing.F) {
	for _, s := range []string{"%A%", "%%", "a%b%c", "%", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// With no variables defined, expansion is the identity.
		if got := ExpandPercent(s, func(string) string { return "" }); got != s {
			t.Fatalf("ExpandPercent(%q) with empty env = %q", s, got)
		}
		_ = ExpandPercent(s, func(k string) string { return "<" + k + ">" })
	})
}
