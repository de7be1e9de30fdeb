package discovery

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/windows-dev-agent/wda/internal/proc"
)

type panicProducer struct{}

func (panicProducer) Name() string                  { return "crashy" }
func (panicProducer) Produce(context.Context) Facts { panic("probe exploded") }

func TestProducerFailuresKeepTheCanonicalShape(t *testing.T) {
	// Timeout, crash and garbage from the PowerShell producer, and a panicking
	// producer: always the canonical shape, degraded, with the cause in errors.
	timeout := PowerShellProducer{TempDir: t.TempDir(), SystemBinary: func(string) (string, error) { return psExe, nil },
		Runner: &fakeRunner{receipt: func(proc.Request) proc.Receipt { return proc.Receipt{ExecutionStarted: true, TimedOut: true} }}}
	crash := PowerShellProducer{TempDir: t.TempDir(), SystemBinary: func(string) (string, error) { return psExe, nil },
		Runner: &fakeRunner{receipt: func(proc.Request) proc.Receipt { return okReceipt(-1073741819, "", "") }}}
	garbage := PowerShellProducer{TempDir: t.TempDir(), SystemBinary: func(string) (string, error) { return psExe, nil },
		Runner: &fakeRunner{receipt: func(proc.Request) proc.Receipt { return okReceipt(0, "\x00\x01garbage", "") }}}
	want := map[string]Producer{"timed out": timeout, "invalid or oversized JSON": crash, "invalid or oversized JSON ": garbage,
		"Unexpected discovery failure: crashy producer: probe exploded": panicProducer{}}
	for msg, p := range want {
		t.Run(msg, func(t *testing.T) {
			res := Discover(t.Context(), Options{Logger: quiet, Producers: []Producer{p}}, false)
			s := res.Snapshot
			if s.Success || res.Status() != "degraded" || len(s.Errors) != 1 || !strings.Contains(s.Errors[0], strings.TrimSpace(msg)) {
				t.Fatalf("snapshot %v %q", s.Success, s.Errors)
			}
			if s.Virtualization.WindowsSandboxAvailable != nil || s.Virtualization.HyperVState != StateUnknown {
				t.Fatalf("features must stay null: %+v", s.Virtualization)
			}
			got := jsonKeys(t, s)
			for _, k := range canonicalKeys {
				if !got[k] {
					t.Errorf("key %s missing", k)
				}
			}
		})
	}
}

func TestMergeOrderAndOwnership(t *testing.T) {
	first := Facts{Features: &Features{HyperV: "Enabled"}, Errors: []string{"ps error"}, ExecutionStarted: true}
	second := Facts{System: &System{OSName: "native"}, Features: &Features{HyperV: "Disabled"}, Errors: []string{"native error"}}
	s, started := Assemble(t0, first, second)
	if !started || s.System.OSName != "native" || s.Virtualization.HyperVState != "Enabled" {
		t.Fatalf("merge: started %v %+v %+v", started, s.System, s.Virtualization)
	}
	if diff := cmp.Diff([]string{"ps error", "native error"}, s.Errors); diff != "" {
		t.Fatalf("error order (-want +got):\n%s", diff)
	}
	ok, _ := Assemble(t0, Facts{System: &System{OSName: "x"}})
	if !ok.Success {
		t.Fatal("no errors must be success")
	}
}

// rendezvous is a producer that waits until every producer of its group has started:
// it can only finish if the producers run concurrently.
type rendezvous struct {
	name  string
	group *sync.WaitGroup
}

func (r rendezvous) Name() string { return r.name }
func (r rendezvous) Produce(context.Context) Facts {
	r.group.Done()
	r.group.Wait()
	return Facts{}
}

func TestProducersRunConcurrently(t *testing.T) {
	var g sync.WaitGroup
	g.Add(2)
	res := Discover(t.Context(), Options{Logger: quiet, Producers: []Producer{rendezvous{"PowerShell", &g}, rendezvous{"native", &g}}}, false)
	if !res.Snapshot.Success {
		t.Fatalf("%q", res.Snapshot.Errors)
	}
}

func TestDiscoverWithoutDataDirNeverCaches(t *testing.T) {
	p := newStatic("p", func() Facts { return Facts{ExecutionStarted: true} })
	for range 2 {
		if r := Discover(t.Context(), Options{Logger: quiet, Producers: []Producer{p}}, false); r.CacheHit || !r.ExecutionStarted {
			t.Fatalf("%+v", r)
		}
	}
	if p.count() != 2 {
		t.Fatalf("runs %d", p.count())
	}
}

func TestPlatformDiscoveryShape(t *testing.T) {
	// The real producers of this platform still give the canonical shape, with every
	// tri-state in {true,false,null} and the state strings of docs/discovery.md,
	// "virtualization".
	res := Discover(t.Context(), Options{Logger: quiet, DataDir: t.TempDir(), Runner: &fakeRunner{}}, false)
	s := res.Snapshot
	got := jsonKeys(t, s)
	for _, k := range canonicalKeys {
		if !got[k] {
			t.Errorf("key %s missing", k)
		}
	}
	b, _ := json.Marshal(s)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	v := m["virtualization"].(map[string]any)
	for _, k := range []string{"hyper_v_state", "windows_sandbox_state"} {
		if str, _ := v[k].(string); str == "" {
			t.Errorf("%s = %v, want a non-empty string", k, v[k])
		}
	}
	if st := v["dev_drive_inventory_state"]; st != "available" && st != "unknown" {
		t.Errorf("dev_drive_inventory_state = %v", st)
	}
	for _, sec := range []string{"development_tools", "editors"} {
		for k, x := range m[sec].(map[string]any) {
			if _, isBool := x.(bool); x != nil && !isBool {
				t.Errorf("%s.%s = %v is not a tri-state", sec, k, x)
			}
		}
	}
	if IsTrue(s.Virtualization.WSLAvailable) && (len(s.Virtualization.WSLDistros) == 0 || s.Virtualization.WSLDefaultDistro == nil) {
		t.Error("wsl_available true without distros")
	}
}
