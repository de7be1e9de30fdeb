//go:build !windows

package capability_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
)

// TestEndToEnd plans and executes a real capability through the real resolver,
// fingerprinting and runner, then changes the executable's bytes and checks that the
// old echo is refused as stale without anything running.
func TestEndToEnd(t *testing.T) {
	bin := t.TempDir()
	work := t.TempDir()
	tool := filepath.Join(bin, "hello-tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho \"hello $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load([]byte("hello: {description: Say hello., safety: reversible, tools: [{name: hello-tool, argv: [hello-tool, world]}]}"))
	if err != nil {
		t.Fatal(err)
	}
	e := &capability.Engine{
		Catalog:     cat,
		Resolver:    proc.NewResolver(func(k string) string { return map[string]string{"PATH": bin}[k] }),
		Runner:      proc.Exec{},
		Fingerprint: proc.Fingerprint,
		SamePath:    proc.SamePath,
	}
	ctx := context.Background()
	p := e.Run(ctx, capability.Request{Capability: "hello", Dir: work, ExtraArgs: []string{"and you"}})
	if p.Status.Status != "planned" || p.Plan == nil || p.ExecutionStarted {
		t.Fatalf("plan: %+v", p)
	}
	if !filepath.IsAbs(p.Executable) || !proc.SamePath(p.Executable, tool) || p.Argv[0] != p.Executable ||
		p.ExecutableIdentityKind != proc.KindFile || len(p.ExecutableIdentitySHA256) != 64 {
		t.Fatalf("plan fields: %+v", p.Plan)
	}
	if p.SafetyClass != tools.ApprovalRequired || !p.RequiresHostApproval {
		t.Errorf("extra_args did not upgrade: %s", p.SafetyClass)
	}
	expected := tools.Identity{ExpectedExecutable: p.Executable,
		ExpectedExecutableIdentityKind: string(p.ExecutableIdentityKind), ExpectedExecutableIdentitySHA: p.ExecutableIdentitySHA256}

	run := e.Run(ctx, capability.Request{Capability: "hello", Dir: work, ExtraArgs: []string{"and you"}, Execute: true, Expected: expected})
	if run.Status.Status != "completed" || !run.ExecutionStarted || run.Receipt == nil || !run.Succeeded {
		t.Fatalf("run: %+v %+v", run.Status, run.Receipt)
	}
	if run.Stdout != "hello world and you\n" || run.ReturnCode == nil || *run.ReturnCode != 0 {
		t.Errorf("stdout %q returncode %v", run.Stdout, run.ReturnCode)
	}

	// Same path, new bytes: the reviewed identity is stale and nothing may run.
	marker := filepath.Join(work, "ran")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stale := e.Run(ctx, capability.Request{Capability: "hello", Dir: work, ExtraArgs: []string{"and you"}, Execute: true, Expected: expected})
	if stale.Status.Status != "stale_plan" || stale.ExecutionStarted || stale.Receipt != nil {
		t.Fatalf("changed executable: %+v %+v", stale.Status, stale.Receipt)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("the changed executable ran (marker: %v)", err)
	}

	// Missing echo is refused and does not run either.
	bare := e.Run(ctx, capability.Request{Capability: "hello", Dir: work, Execute: true})
	if bare.Status.Status != "invalid_input" || bare.ExecutionStarted {
		t.Fatalf("missing echo: %+v", bare.Status)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatalf("ran without an echo (marker: %v)", err)
	}
}
