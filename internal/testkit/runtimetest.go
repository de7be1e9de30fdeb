// Package testkit holds test helpers for tool packages: checking that a tool's
// outputs conform to the output schema it advertises (CheckOutput, and Call and Decode,
// which return the output as a client sees it, and Connect, an in-memory MCP client
// session), and the file fixtures that tests of several packages build on (TempDir,
// WriteFile, Symlink).
//
// It is imported only by tests. It uses github.com/google/jsonschema-go, the validator
// the go-sdk itself uses, so "conforms" means what an SDK client would check.
package testkit

import (
	"encoding/json"
	"fmt"

	gschema "github.com/google/jsonschema-go/jsonschema"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// CheckOutput validates out (a tool's Out value or its structured map) against the
// tool's output schema.
func CheckOutput(t tools.Tool, out any) error {
	return check(schema.Out(t), out)
}

// CheckInput validates args against the tool's input schema with the SDK's validator
// (a second opinion beside schema.Validate).
func CheckInput(t tools.Tool, args any) error {
	return check(schema.In(t), args)
}

func check(s *schema.Schema, v any) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	var gs gschema.Schema
	if err := json.Unmarshal(b, &gs); err != nil {
		return fmt.Errorf("schema does not parse as JSON Schema: %w", err)
	}
	rs, err := gs.Resolve(nil)
	if err != nil {
		return fmt.Errorf("schema does not resolve: %w", err)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var inst any
	if err := json.Unmarshal(raw, &inst); err != nil {
		return err
	}
	return rs.Validate(inst)
}
