package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
	// The JSON conversion of sigs.k8s.io/yaml goes through a Go map and so sorts the
	// keys; its bundled YAML decoder's MapSlice is the one way in the allowed modules to
	// read the ids in document order.
	yamlv2 "sigs.k8s.io/yaml/goyaml.v2"

	"github.com/windows-dev-agent/wda/tools"
)

// spec is the wire form of one capability. Pointers tell absent from empty.
type spec struct {
	Description  *string           `json:"description"`
	Safety       *string           `json:"safety"`
	Tags         []string          `json:"tags"`
	Tools        []json.RawMessage `json:"tools"`
	ProjectFiles []string          `json:"project_files"`
}

type toolSpec struct {
	Name *string  `json:"name"`
	Argv []string `json:"argv"`
}

// Load parses and validates a catalog source (YAML, or JSON which is a YAML subset).
func Load(src []byte) (*Catalog, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, errors.New("capability catalog is empty")
	}
	js, err := yaml.YAMLToJSONStrict(src)
	if err != nil {
		return nil, fmt.Errorf("capability catalog is not valid YAML: %w", err)
	}
	var root map[string]json.RawMessage
	if b := bytes.TrimSpace(js); len(b) == 0 || b[0] != '{' {
		return nil, errors.New("capability catalog root must be a mapping of capability id to capability")
	}
	if err := json.Unmarshal(js, &root); err != nil {
		return nil, fmt.Errorf("capability catalog: %w", err)
	}
	ids, err := documentOrder(src)
	if err != nil {
		return nil, err
	}
	if len(ids) != len(root) {
		return nil, errors.New("capability catalog: capability ids must be distinct plain strings")
	}
	c := &Catalog{caps: map[string]Capability{}}
	for _, id := range ids {
		raw, ok := root[id]
		if !ok {
			return nil, fmt.Errorf("capability catalog: capability id %q must be a plain string", id)
		}
		if _, dup := c.caps[id]; dup {
			return nil, fmt.Errorf("capability %q: defined more than once", id)
		}
		if strings.TrimSpace(id) == "" {
			return nil, errors.New("capability catalog: capability id must be a non-empty string")
		}
		cp, err := parseCapability(id, raw)
		if err != nil {
			return nil, err
		}
		c.ids = append(c.ids, id)
		c.caps[id] = cp
	}
	return c, nil
}

// documentOrder returns the top-level keys in document order. Non-string keys (YAML
// 1.1 reads `yes:` as a boolean and `1:` as a number) are refused rather than
// stringified, so an id is always exactly what was written.
func documentOrder(src []byte) ([]string, error) {
	var top yamlv2.MapSlice
	if err := yamlv2.Unmarshal(src, &top); err != nil {
		return nil, fmt.Errorf("capability catalog is not valid YAML: %w", err)
	}
	ids := make([]string, 0, len(top))
	for _, item := range top {
		id, ok := item.Key.(string)
		if !ok {
			return nil, fmt.Errorf("capability catalog: capability id %v must be a string (quote it)", item.Key)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func parseCapability(id string, raw json.RawMessage) (Capability, error) {
	if !isObject(raw) {
		return Capability{}, fmt.Errorf("capability %q: must be a mapping with description, safety, tags and tools", id)
	}
	var s spec
	if err := strictDecode(raw, &s); err != nil {
		return Capability{}, fmt.Errorf("capability %q: %s", id, describe(err))
	}
	cp := Capability{ID: id, Tags: s.Tags}
	if s.Description == nil || strings.TrimSpace(*s.Description) == "" {
		return Capability{}, fmt.Errorf("capability %q: field description is required and must be a non-empty string", id)
	}
	cp.Description = *s.Description
	cp.Safety = tools.ApprovalRequired // absent: fail closed to the strictest executable class
	if s.Safety != nil {
		switch c := tools.Class(*s.Safety); c {
		case tools.ReadOnly, tools.Reversible, tools.ApprovalRequired, tools.Forbidden:
			cp.Safety = c
		default:
			return Capability{}, fmt.Errorf("capability %q: field safety must be one of read-only, reversible, approval-required, forbidden (got %q)", id, *s.Safety)
		}
	}
	for i, tag := range s.Tags {
		if strings.TrimSpace(tag) == "" {
			return Capability{}, fmt.Errorf("capability %q: field tags[%d] must be a non-empty string", id, i)
		}
	}
	for i, pf := range s.ProjectFiles {
		if err := checkProjectFile(pf); err != nil {
			return Capability{}, fmt.Errorf("capability %q: field project_files[%d] %s", id, i, err)
		}
	}
	cp.ProjectFiles = s.ProjectFiles
	if len(s.Tools) == 0 {
		return Capability{}, fmt.Errorf("capability %q: field tools must be a non-empty list of {name, argv}", id)
	}
	for i, rt := range s.Tools {
		t, err := parseTool(rt)
		if err != nil {
			return Capability{}, fmt.Errorf("capability %q: field tools[%d]%s", id, i, err)
		}
		cp.Tools = append(cp.Tools, t)
	}
	return cp, nil
}

// parseTool returns errors that continue "field tools[i]".
func parseTool(raw json.RawMessage) (Tool, error) {
	if !isObject(raw) {
		return Tool{}, errors.New(" must be a mapping with name and argv")
	}
	var ts toolSpec
	if err := strictDecode(raw, &ts); err != nil {
		return Tool{}, fmt.Errorf(": %s", describe(err))
	}
	if ts.Name == nil || strings.TrimSpace(*ts.Name) == "" {
		return Tool{}, errors.New(".name is required and must be a non-empty string")
	}
	if len(ts.Argv) == 0 {
		return Tool{}, errors.New(".argv is required and must be a non-empty list of strings")
	}
	for j, a := range ts.Argv {
		if a == "" {
			return Tool{}, fmt.Errorf(".argv[%d] must be a non-empty string", j)
		}
	}
	return Tool{Name: *ts.Name, Argv: ts.Argv}, nil
}

func isObject(raw json.RawMessage) bool {
	b := bytes.TrimSpace(raw)
	return len(b) > 0 && b[0] == '{'
}

func strictDecode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// describe rewrites encoding/json errors so they name the field in catalog terms.
func describe(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %s must not be a %s", te.Field, te.Value)
	}
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown field " + rest + " (allowed: description, safety, tags, tools, project_files; tools entries: name, argv)"
	}
	return strings.TrimPrefix(msg, "json: ")
}
