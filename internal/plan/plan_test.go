package plan

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

func TestCommand(t *testing.T) {
	tests := []struct {
		argv []string
		want string
	}{
		{[]string{`C:\Program Files\x.exe`, "install", "--id", "A.B"}, `"C:\Program Files\x.exe" install --id A.B`},
		{[]string{"a", ""}, `a ""`},
		{[]string{`a"b`}, `a\"b`},
		{[]string{`a\\"b`}, `a\\\\\"b`},
		{[]string{`dir\ with\`}, `"dir\ with\\"`},
		{[]string{`x\y`}, `x\y`},
		{nil, ""},
		// The cases of CPython's list2cmdline test, which pins the MSVC argv rules.
		{[]string{"a b c", "d", "e"}, `"a b c" d e`},
		{[]string{`ab"c`, `\`, "d"}, `ab\"c \ d`},
		{[]string{`ab"c`, ` \`, "d"}, `ab\"c " \\" d`},
		{[]string{`a\\\b`, "de fg", "h"}, `a\\\b "de fg" h`},
		{[]string{`a\"b`, "c", "d"}, `a\\\"b c d`},
		{[]string{`a\\b c`, "d", "e"}, `"a\\b c" d e`},
		{[]string{`a\\b\ c`, "d", "e"}, `"a\\b\ c" d e`},
		{[]string{"ab", ""}, `ab ""`},
		{[]string{`C:\Program Files\Git\cmd\git.exe`, "status", "tab\there"}, `"C:\Program Files\Git\cmd\git.exe" status "tab	here"`},
	}
	for _, tt := range tests {
		if got := Command(tt.argv); got != tt.want {
			t.Errorf("Command(%q) = %s, want %s", tt.argv, got, tt.want)
		}
	}
}

func TestCheckEcho(t *testing.T) {
	dir := t.TempDir()
	ext := "" // Windows fingerprints only the command targets it would run
	if goruntime.GOOS == "windows" {
		ext = ".exe"
	}
	exe := filepath.Join(dir, "tool"+ext)
	other := filepath.Join(dir, "other"+ext)
	for _, p := range []string{exe, other} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	id, err := proc.Fingerprint(exe)
	if err != nil {
		t.Fatal(err)
	}
	good := tools.Identity{ExpectedExecutable: exe, ExpectedExecutableIdentityKind: string(id.Kind), ExpectedExecutableIdentitySHA: strings.ToUpper(id.SHA256)}
	with := func(f func(*tools.Identity)) tools.Identity { e := good; f(&e); return e }
	flipped := []byte(id.SHA256)
	if flipped[0] == 'a' {
		flipped[0] = 'b'
	} else {
		flipped[0] = 'a'
	}
	tests := []struct {
		name   string
		echo   tools.Identity
		status string
		rule   Rule
	}{
		{"match (sha case-insensitive)", good, "", 0},
		{"missing path", with(func(e *tools.Identity) { e.ExpectedExecutable = "  " }), InvalidInput, EchoMissing},
		{"other path", with(func(e *tools.Identity) { e.ExpectedExecutable = other }), StalePlan, EchoPathChanged},
		{"relative path", with(func(e *tools.Identity) { e.ExpectedExecutable = "tool" }), StalePlan, EchoPathChanged},
		{"missing kind", with(func(e *tools.Identity) { e.ExpectedExecutableIdentityKind = "" }), InvalidInput, EchoMalformed},
		{"unknown kind", with(func(e *tools.Identity) { e.ExpectedExecutableIdentityKind = "script" }), InvalidInput, EchoMalformed},
		{"short sha", with(func(e *tools.Identity) { e.ExpectedExecutableIdentitySHA = id.SHA256[:63] }), InvalidInput, EchoMalformed},
		{"non-hex sha", with(func(e *tools.Identity) { e.ExpectedExecutableIdentitySHA = strings.Repeat("g", 64) }), InvalidInput, EchoMalformed},
		{"other kind", with(func(e *tools.Identity) { e.ExpectedExecutableIdentityKind = "app_execution_alias" }), StalePlan, EchoIdentityChanged},
		{"other sha", with(func(e *tools.Identity) { e.ExpectedExecutableIdentitySHA = string(flipped) }), StalePlan, EchoIdentityChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seal, ref := CheckEcho(tt.echo, exe, id)
			got, rule := "", Rule(0)
			if ref != nil {
				got, rule = ref.Status, ref.Rule
				if ref.Error == "" || seal != nil {
					t.Errorf("refusal %+v with seal %v", ref, seal)
				}
			} else if seal == nil || !seal.Equal(id) || seal.SHA256 != id.SHA256 {
				t.Errorf("seal = %+v, want %+v", seal, id)
			}
			if got != tt.status || rule != tt.rule {
				t.Errorf("status, rule = %q, %d, want %q, %d (%+v)", got, rule, tt.status, tt.rule, ref)
			}
		})
	}
}

func TestMergeAndReceipt(t *testing.T) {
	rc := 3
	r := proc.Receipt{Succeeded: false, ReturnCode: &rc, Stdout: "o", Stderr: "e", Argv: []string{"/x"}, ExecutionStarted: true,
		OutputCaptureComplete: true, OutputCaptureSettled: true, TimedOut: true, Error: "Process timed out after 1 seconds"}
	if d := cmp.Diff(tools.Status{Status: "failed", Error: r.Error, ExecutionStarted: true}, Merge("failed", "", r)); d != "" {
		t.Error(d)
	}
	if got := Merge("stale_plan", "changed", r); got.Error != "changed" {
		t.Errorf("err precedence: %+v", got)
	}
	want := &Receipt{ReturnCode: &rc, Stdout: "o", Stderr: "e", OutputCaptureComplete: true, OutputCaptureSettled: true, TimedOut: true}
	if d := cmp.Diff(want, FromReceipt(r)); d != "" {
		t.Error(d)
	}
	if ChangedAtSpawn(r) || !ChangedAtSpawn(proc.Receipt{IdentityMismatch: true}) || ChangedAtSpawn(proc.Receipt{IdentityUnavailable: true}) {
		t.Error("ChangedAtSpawn")
	}
}
