package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/windows-dev-agent/wda/skills"
)

// runSkills lists the embedded skills, or prints one SKILL.md.
func runSkills(args []string, stdout, stderr io.Writer) int {
	all, err := skills.All()
	if err != nil {
		fmt.Fprintf(stderr, "wda skills: %v\n", err)
		return 1
	}
	if len(args) == 1 {
		for _, s := range all {
			if s.Name == args[0] {
				_, _ = stdout.Write(s.Body)
				return 0
			}
		}
		fmt.Fprintf(stderr, "wda skills: no skill %q\n", args[0])
		return 2
	}
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: wda skills [NAME]")
		return 2
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, s := range all {
		fmt.Fprintf(tw, "%s\t%s\n", s.Name, s.Description)
	}
	tw.Flush()
	return 0
}
