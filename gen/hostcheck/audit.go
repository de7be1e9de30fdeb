package hostcheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// sharedAuditLog checks that the one audit log under dir (the plugin's data folder, or
// a folder above it when the host names it by a hash) holds records of the server (a
// tools/call for host) and of the hooks (a PreToolUse or PostToolUse): the server and
// the hooks resolved the same data folder.
func sharedAuditLog(dir, host string) error {
	var logs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "agent.log" {
			logs = append(logs, p)
		}
		return nil
	})
	if err != nil || len(logs) != 1 {
		return fmt.Errorf("want one audit log under %s, found %v (%v)", dir, logs, err)
	}
	f, err := os.Open(logs[0])
	if err != nil {
		return err
	}
	defer f.Close()
	var server, hooked bool
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct{ Host, Event string }
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		switch {
		case r.Event == "tools/call" && r.Host == host:
			server = true
		case (r.Event == "PreToolUse" || r.Event == "PostToolUse") && (r.Host == host || r.Host == ""):
			// Claude's hook records carry no host field (the folder is the plugin's own).
			hooked = true
		}
	}
	if !server || !hooked {
		return fmt.Errorf("%s: server records %v, hook records %v", logs[0], server, hooked)
	}
	return sc.Err()
}
