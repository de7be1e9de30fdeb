package mcpaudit

import (
	"encoding/json"

	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/mcpconfig"
)

// MarshalJSON leaves out of the report what says nothing (issue 24, "What the model
// pays"; docs/tools/mcp_audit.md, "Output"): empty lists and host_inventory_included
// false (the call asked for the project only). UnmarshalJSON gives them back.
func (o Out) MarshalJSON() ([]byte, error) {
	if o.Report == nil {
		return json.Marshal(o.Status)
	}
	return json.Marshal(struct {
		tools.Status
		ProjectDir            string                `json:"project_dir"`
		HostInventoryIncluded bool                  `json:"host_inventory_included,omitempty"`
		Configs               []mcpconfig.Config    `json:"configs,omitempty"`
		ServerCount           int                   `json:"server_count"`
		DuplicateNames        []string              `json:"duplicate_names,omitempty"`
		Malformed             []mcpconfig.Malformed `json:"malformed,omitempty"`
		Findings              []mcpconfig.Finding   `json:"findings,omitempty"`
		FindingsOmitted       int                   `json:"findings_omitted,omitempty"`
	}{o.Status, o.ProjectDir, o.HostInventoryIncluded, o.Configs, o.ServerCount, o.DuplicateNames, o.Malformed, o.Findings, o.FindingsOmitted})
}

// UnmarshalJSON reads a result as MarshalJSON wrote it, every list an array again.
func (o *Out) UnmarshalJSON(b []byte) error {
	var st tools.Status
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	*o = Out{Status: st}
	if _, ok := probe["project_dir"]; !ok {
		return nil
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return err
	}
	if r.Configs == nil {
		r.Configs = []mcpconfig.Config{}
	}
	if r.DuplicateNames == nil {
		r.DuplicateNames = []string{}
	}
	if r.Malformed == nil {
		r.Malformed = []mcpconfig.Malformed{}
	}
	if r.Findings == nil {
		r.Findings = []mcpconfig.Finding{}
	}
	o.Report = &r
	return nil
}
