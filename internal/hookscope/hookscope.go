// Package hookscope hands the project a trusted hook approved for one call to the
// server that then serves the call (docs/safety.md, "Under Codex").
//
// Codex tells an MCP server nothing about the session's working directory, but its
// PreToolUse hook gets the session cwd, and the hook's tool_use_id is the call's
// _meta.callId. The hook, having checked that the call's project argument lies inside
// that cwd, puts a record under the call id in the shared data directory; the server
// takes it (reading and deleting it) and contains the call in the same directory
// itself, on the handle it opens — so a directory swapped for a link between the
// hook's check and the server's use is still refused. No record means the hooks did
// not run.
//
// Records hold only the session id and the directory; they are owner-only files in the
// data directory, written atomically, never inside the plugin folder (Codex re-asks the
// user to trust hooks whenever a file there changes).
package hookscope

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Dir is the folder of the records inside a data directory.
const Dir = "hook-scope"

// MaxAge is how long a record is kept when no call takes it (a denied or abandoned
// call): Sweep removes older ones.
const MaxAge = time.Hour

// Record is what a hook approved for one call.
type Record struct {
	Version int `json:"v"`
	// Session is the host's session id, checked against the call's when both are known.
	Session string `json:"session,omitempty"`
	// Cwd is the final path of the session's working directory when the hook ran.
	Cwd string `json:"cwd"`
}

// ErrBadID refuses a call id that is not shaped like one (it would become a file name).
var ErrBadID = errors.New("hookscope: the call id is not 1 to 128 letters, digits, '.', '_' or '-'")

func path(dataDir, callID string) (string, error) {
	if dataDir == "" {
		return "", errors.New("hookscope: no data directory")
	}
	if !validID(callID) {
		return "", ErrBadID
	}
	return filepath.Join(dataDir, Dir, callID+".json"), nil
}

func validID(s string) bool {
	if s == "" || len(s) > 128 || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// Put records r for the call callID, replacing any earlier record of it.
func Put(dataDir, callID string, r Record) error {
	p, err := path(dataDir, callID)
	if err != nil {
		return err
	}
	r.Version = 1
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("hookscope: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".put-*")
	if err != nil {
		return fmt.Errorf("hookscope: %w", err)
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("hookscope: %w", werr)
	}
	return nil
}

// Take returns and removes the record of callID; false when there is none (the hooks
// did not run for it). A record that cannot be read or parsed counts as none and is
// removed.
func Take(dataDir, callID string) (Record, bool) {
	p, err := path(dataDir, callID)
	if err != nil {
		return Record{}, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return Record{}, false
	}
	_ = os.Remove(p)
	var r Record
	if json.Unmarshal(b, &r) != nil || r.Version != 1 || r.Cwd == "" {
		return Record{}, false
	}
	return r, true
}

// Sweep removes records older than MaxAge at now.
func Sweep(dataDir string, now time.Time) error {
	dir := filepath.Join(dataDir, Dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || fi.IsDir() {
			continue
		}
		if now.Sub(fi.ModTime()) > MaxAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	return nil
}
