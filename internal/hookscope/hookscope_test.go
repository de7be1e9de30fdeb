package hookscope

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPutTake(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	want := Record{Version: 1, Session: "s-1", Cwd: "/p"}
	if err := Put(dir, "call_01", Record{Session: "s-1", Cwd: "/p"}); err != nil {
		t.Fatal(err)
	}
	got, ok := Take(dir, "call_01")
	if !ok {
		t.Fatal("no record")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if _, ok := Take(dir, "call_01"); ok {
		t.Error("a record was taken twice")
	}
	if _, ok := Take(dir, "call_02"); ok {
		t.Error("a record nobody put")
	}
}

func TestBadIDsAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, id := range []string{"", ".", "..", "../x", "a/b", `a\b`, "a b", string(make([]byte, 129))} {
		if err := Put(dir, id, Record{Cwd: "/p"}); err != ErrBadID {
			t.Errorf("Put(%q) = %v", id, err)
		}
		if _, ok := Take(dir, id); ok {
			t.Errorf("Take(%q) found something", id)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("bad ids created %v", ents)
	}
}

func TestCorruptRecordIsNone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, Dir), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"a": "{", "b": `{"v":2,"cwd":"/p"}`, "c": `{"v":1}`} {
		p := filepath.Join(dir, Dir, name+".json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := Take(dir, name); ok {
			t.Errorf("%s: a corrupt record was taken", name)
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s: the corrupt record stays", name)
		}
	}
}

func TestSweep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, id := range []string{"old", "new"} {
		if err := Put(dir, id, Record{Cwd: "/p"}); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * MaxAge)
	if err := os.Chtimes(filepath.Join(dir, Dir, "old.json"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := Sweep(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok := Take(dir, "old"); ok {
		t.Error("old record survived the sweep")
	}
	if _, ok := Take(dir, "new"); !ok {
		t.Error("new record was swept")
	}
	if err := Sweep(t.TempDir(), time.Now()); err != nil {
		t.Errorf("sweeping a data dir without records: %v", err)
	}
}
