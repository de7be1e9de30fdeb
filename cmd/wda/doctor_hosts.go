package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host/copilot"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/platform/home"
)

// The Agent Plugins and Gemini CLI installs (docs/cli.md, "wda doctor").

// copilotInstalls finds the plugin folders the Copilot CLI installed: those its
// config.json records (installedPlugins: name and cache_path) and every
// installed-plugins/<marketplace>/windows-dev-agent (_direct/… for a folder installed
// by its path). The server's data directory is the host's choice, told to the server
// only (COPILOT_PLUGIN_DATA), so it is not checked.
func (de doctorEnv) copilotInstalls(ctx context.Context, rendered map[string][]byte) ([]install, []check) {
	h := home.Dir(de.getenv)
	if h == "" {
		return nil, []check{{Name: "GitHub Copilot CLI", State: checkInfo, Detail: "no home directory is known (HOME/USERPROFILE unset): not checked"}}
	}
	base := filepath.Join(h, ".copilot")
	roots := map[string]string{} // folder -> id
	var order []string
	add := func(root, id string) {
		if _, seen := roots[root]; !seen {
			roots[root] = id
			order = append(order, root)
		}
	}
	for _, p := range copilotRecorded(filepath.Join(base, "config.json")) {
		add(filepath.Clean(p), copilotID(filepath.Base(filepath.Dir(p))))
	}
	plugins := filepath.Join(base, "installed-plugins")
	markets, err := os.ReadDir(plugins)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, []check{{Name: "GitHub Copilot CLI", State: checkFail, Detail: fmt.Sprintf("%s cannot be read: %v", plugins, err),
			Fix: "check the folder's permissions"}}
	}
	for _, m := range markets {
		root := filepath.Join(plugins, m.Name(), wda.ServerName)
		if fi, err := os.Stat(root); m.IsDir() && err == nil && fi.IsDir() {
			add(root, copilotID(m.Name()))
		}
	}
	if len(order) == 0 {
		return nil, []check{{Name: "GitHub Copilot CLI", State: checkInfo, Detail: "no plugin is installed (nothing in " + plugins + ")",
			Fix: "to install: " + hostTable["copilot"].install}}
	}
	var out []install
	for _, root := range order {
		id := roots[root]
		in := install{Host: "copilot", ID: id, Path: root}
		in.Checks = de.pluginChecks(ctx, "copilot", id, root, "", "", rendered)
		in.Version = manifestVersion(filepath.Join(root, hostTable["copilot"].manifest))
		out = append(out, in)
	}
	return out, nil
}

// copilotID is the plugin id of a Copilot install from its marketplace folder.
func copilotID(market string) string {
	if market == "_direct" {
		return wda.ServerName // installed from a folder: no marketplace
	}
	return wda.ServerName + "@" + market
}

// copilotRecorded are the cache_path values of the Copilot CLI's config.json entries
// for this plugin. The file starts with // comment lines, which JSON does not allow.
func copilotRecorded(file string) []string {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	plugins, err := copilot.InstalledPlugins(raw)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range plugins {
		if p.Name == wda.ServerName && filepath.IsAbs(p.CachePath) {
			out = append(out, p.CachePath)
		}
	}
	return out
}

// geminiInstalls finds the extension Gemini CLI installed in
// ~/.gemini/extensions/windows-dev-agent. Its server's data directory is this
// machine's default (Gemini gives none: internal/config).
func (de doctorEnv) geminiInstalls(ctx context.Context, rendered map[string][]byte) ([]install, []check) {
	h := home.Dir(de.getenv)
	if h == "" {
		return nil, []check{{Name: "Gemini CLI", State: checkInfo, Detail: "no home directory is known (HOME/USERPROFILE unset): not checked"}}
	}
	root := filepath.Join(h, ".gemini", "extensions", wda.ServerName)
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, []check{{Name: "Gemini CLI", State: checkInfo, Detail: "no extension is installed (" + root + " does not exist)",
			Fix: "to install: " + hostTable["gemini"].install}}
	}
	in := install{Host: "gemini", ID: wda.ServerName, Path: root,
		Version: manifestVersion(filepath.Join(root, hostTable["gemini"].manifest))}
	in.Checks = de.pluginChecks(ctx, "gemini", in.ID, root, config.DataDir("gemini", de.getenv), "", rendered)
	return []install{in}, nil
}

// manifestVersion is the version a plugin manifest declares, "" when unreadable.
func manifestVersion(file string) string {
	var m struct {
		Version string `json:"version"`
	}
	if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &m) == nil {
		return m.Version
	}
	return ""
}

// newestBin is the bin folder of the newest install whose binary runs.
func newestBin(installs []install) string {
	best, bestVersion := "", ""
	for _, in := range installs {
		runs := false
		for _, ch := range in.Checks {
			runs = runs || ch.Name == "binary" && ch.State == checkOK
		}
		if runs && (best == "" || versionLess(bestVersion, in.Version)) {
			best, bestVersion = filepath.Join(in.Path, "bin"), in.Version
		}
	}
	return best
}

// versionLess orders versions by their dot-separated numbers (0.9.0 < 0.10.0), then a
// release above its pre-releases (0.6.0-rc1 < 0.6.0), then as text.
func versionLess(a, b string) bool {
	coreA, preA, _ := strings.Cut(a, "-")
	coreB, preB, _ := strings.Cut(b, "-")
	pa, pb := strings.Split(coreA, "."), strings.Split(coreB, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y string
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		nx, errX := strconv.ParseUint(x, 10, 64)
		ny, errY := strconv.ParseUint(y, 10, 64)
		switch {
		case errX == nil && errY == nil && nx != ny:
			return nx < ny
		case (errX == nil) != (errY == nil):
			return errX != nil // a missing or non-numeric part sorts first
		case errX != nil && x != y:
			return x < y
		}
	}
	switch {
	case preA == preB:
		return false
	case preA == "":
		return false
	case preB == "":
		return true
	}
	return preA < preB
}
