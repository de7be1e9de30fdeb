package discovery

import (
	"errors"
	"io/fs"
	"path/filepath"
)

// readWSLFacts reads the raw WSL facts (docs/discovery.md, "WSL facts") that live in the
// file system and the registry (64-bit view). The optional-feature fact comes from the
// PowerShell producer and is merged later. Each failed read records one error and leaves
// its fact unknown.
func readWSLFacts(reg Registry, wslExe func() (string, error)) (WSLFacts, []string) {
	var f WSLFacts
	var errs []string
	note := func(what string, err error) { errs = append(errs, what+" was not established: "+err.Error()) }

	switch exe, err := wslExe(); {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		f.Exe = False()
	case err != nil:
		note("WSL executable state", err)
	default:
		f.Exe = Bool(filepath.IsAbs(exe))
	}
	var err error
	if f.StoreService, err = keyPresence(reg, keyStoreService); err != nil {
		note("Store WSL service registration (WslService)", err)
	}
	if f.InboxService, err = keyPresence(reg, keyInboxService); err != nil {
		note("Inbox WSL service registration (LxssManager)", err)
	}
	if f.StorePackage, err = readStorePackage(reg); err != nil {
		note("Store WSL package state", err)
	}
	for _, p := range []struct {
		name string
		dst  *Policy
	}{{"AllowWSL", &f.AllowWSL}, {"AllowInboxWSL", &f.AllowInbox}, {"AllowWSL1", &f.AllowWSL1}} {
		if *p.dst, err = readPolicy(reg, p.name); err != nil {
			note("WSL policy "+p.name, err)
		}
	}
	if f.Inventory, err = readInventory(reg); err != nil {
		note("Registered WSL distribution state", err)
	}
	return f, errs
}
