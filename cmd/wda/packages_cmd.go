package main

import (
	"errors"
	"fmt"
	"strings"
)

// The package lifecycle in commands (docs/cli.md, "Packages"; issue 25 §1):
//
//	wda install ID[@VERSION]   package_install, action install (an exact version after @)
//	wda upgrade ID[@VERSION]   package_install, action upgrade
//	wda uninstall ID           package_install, action uninstall
//	wda list [FILTER]          package_search, installed (--upgrades: those with an upgrade)
//
// They are tool commands like the others: flags from the tool's schema, plan, confirm,
// run for package_install. The action and the listing are fixed by the command, never
// flags, so `wda install` cannot be told to uninstall.
// The commands are entries of toolCommands (commands.go).

// splitVersion turns a package_id written ID@VERSION into package_id and version. A
// package id never holds '@' (its pattern), so the first '@' is the split.
func splitVersion(args map[string]any) error {
	s, _ := args["package_id"].(string)
	id, version, found := strings.Cut(s, "@")
	if !found {
		return nil
	}
	switch {
	case id == "" || version == "":
		return fmt.Errorf("%q: write PACKAGE_ID@VERSION with both parts, or PACKAGE_ID alone", s)
	case args["version"] != nil:
		return errors.New("the version is given twice: use PACKAGE_ID@VERSION or --version, not both")
	}
	args["package_id"], args["version"] = id, version
	return nil
}

// packageAction is the action of a package_install plan ("install" when absent).
func packageAction(out map[string]any) string {
	if a, _ := out["action"].(string); a != "" {
		return a
	}
	return "install"
}

// packageTarget is the package of a plan, with its exact version when one was asked.
func packageTarget(out map[string]any) string {
	if v, _ := out["version"].(string); v != "" {
		return str(out["package_id"]) + "@" + v
	}
	return str(out["package_id"])
}

// renderInstalled shows an installed list: each package with its installed version and
// the upgrade the manager offers, then the command that acts on one.
func renderInstalled(v *view, out map[string]any) {
	if out["status"] != "completed" && out["status"] != "incomplete" {
		renderStatus(v, out)
		if w, _ := out["warning"].(string); w != "" {
			v.printf("warning: %s\n", w)
		}
		if out["status"] == "unavailable" {
			for _, line := range managerHelp(str(out["source"]), v.args, v.sc) {
				v.printf("%s\n", line)
			}
		}
		return
	}
	matches := list(out["matches"])
	source := str(out["source"])
	what := "installed package(s)"
	if out["upgrades"] == true {
		what = "package(s) with an upgrade"
	}
	line := fmt.Sprintf("%d %s from %s", len(matches), what, source)
	if q, _ := out["query"].(string); q != "" {
		line += fmt.Sprintf(" matching %q", q)
	}
	v.printf("%s\n", line)
	if len(matches) > 0 {
		rows := [][]string{{"ID", "NAME", "VERSION", "AVAILABLE", "SOURCE"}}
		for _, m := range matches {
			e := obj(m)
			available, _ := e["available"].(string)
			if e["pinned"] == true {
				available = strings.TrimSpace(available + " (pinned)")
			}
			if available == "" {
				available = "-"
			}
			rows = append(rows, []string{str(e["id"]), str(e["name"]), str(e["version"]), available, str(e["source"])})
		}
		v.table(rows)
		if out["upgrades"] == true {
			v.printf("\nUpgrade one with: wda upgrade ID --source %s\n", source)
		} else {
			v.printf("\nUpgrade or remove one with: wda upgrade ID --source %s, wda uninstall ID --source %s\n", source, source)
		}
	}
	if w, _ := out["warning"].(string); w != "" {
		v.printf("warning: %s\n", w)
	}
}
