// Command gofloor is the floor of any hook written in Go: it reads the event from stdin
// and decodes it, then exits. BenchmarkShippedHookProcess builds it with the release
// flags and measures it beside wda-hook.
package main

import (
	"encoding/json"
	"io"
	"os"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	var event map[string]any
	if err != nil || json.Unmarshal(b, &event) != nil {
		os.Exit(2)
	}
}
