package policy

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
)

const fullDoc = `{
  "disabled_tools": ["sandbox_run"],
  "denied_capabilities": ["git.push", "npm:deploy"],
  "allowed_capabilities": ["git.status", "go.test"],
  "max_execute_class": "reversible",
  "refuse_extra_args": true,
  "project_tasks": "deny",
  "packages": {"allowed_ids": ["Git.Git"], "allowed_sources": ["winget"], "allow_uninstall": false},
  "sandbox": {"allowed_routes": ["wsl"]},
  "audit": {"otlp": {"endpoint": "https://otel.example.com:4318", "protocol": "http/protobuf",
    "headers": {"x-api-key": "k"}, "timeout_seconds": 10}}
}`

func TestParseFull(t *testing.T) {
	p, err := Parse([]byte(fullDoc))
	if err != nil {
		t.Fatal(err)
	}
	f := false
	want := &Policy{
		DisabledTools:       []string{"sandbox_run"},
		DeniedCapabilities:  []string{"git.push", "npm:deploy"},
		AllowedCapabilities: &[]string{"git.status", "go.test"},
		MaxExecuteClass:     tools.Reversible,
		RefuseExtraArgs:     true,
		ProjectTasks:        "deny",
		Packages:            Packages{AllowedIDs: &[]string{"Git.Git"}, AllowedSources: &[]string{"winget"}, AllowUninstall: &f},
		Sandbox:             Sandbox{AllowedRoutes: &[]string{"wsl"}},
		Audit: Audit{OTLP: &OTLP{Endpoint: "https://otel.example.com:4318", Protocol: "http/protobuf",
			Headers: map[string]string{"x-api-key": "k"}, Timeout: 10 * time.Second}},
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("Parse (-want +got):\n%s", d)
	}
}

func TestParseEmptyAllowList(t *testing.T) {
	p, err := Parse([]byte(`{"allowed_capabilities": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.AllowedCapabilities == nil || len(*p.AllowedCapabilities) != 0 {
		t.Errorf("an empty allow-list must be kept as empty (nothing allowed), got %v", p.AllowedCapabilities)
	}
}

// TestParseErrors: every broken document names the line, the column and the rule.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown key", "{\n  \"disabled_tools\": [],\n  \"allow_everything\": true\n}",
			`line 3, column 3: unknown key "allow_everything" (known keys of the policy: disabled_tools, denied_capabilities, allowed_capabilities, max_execute_class, refuse_extra_args, project_tasks, packages, sandbox, audit)`},
		{"unknown nested key", `{"packages": {"allowed_id": []}}`,
			`line 1, column 15: unknown key "packages.allowed_id" (known keys of packages: allowed_ids, allowed_sources, allow_uninstall)`},
		{"repeated key", "{\"refuse_extra_args\": true,\n\"refuse_extra_args\": false}",
			`line 2, column 1: key "refuse_extra_args" appears twice`},
		{"wrong type", `{"refuse_extra_args": "yes"}`, `line 1, column 23: refuse_extra_args must be true or false`},
		{"enum", `{"max_execute_class": "forbidden"}`,
			`line 1, column 23: max_execute_class must be one of "read-only", "reversible", "checkpoint", "approval-required"`},
		{"list item", `{"packages": {"allowed_sources": ["winget", "npm"]}}`,
			`line 1, column 45: packages.allowed_sources: "npm" is not one of "winget", "chocolatey", "scoop"`},
		{"tool name", `{"disabled_tools": ["rm_rf"]}`, `line 1, column 21: disabled_tools: "rm_rf" is not a Windows Dev Agent tool`},
		{"number range", `{"audit": {"otlp": {"timeout_seconds": 0}}}`,
			`line 1, column 40: audit.otlp.timeout_seconds must be a whole number from 1 to 300`},
		{"endpoint", `{"audit": {"otlp": {"endpoint": "otel:4317"}}}`,
			`line 1, column 33: audit.otlp.endpoint: "otel:4317" is not an http:// or https:// URL`},
		{"syntax", "{\n  \"project_tasks\": \"deny\",\n}", `line 3, column 1: invalid character '}' looking for beginning of object key string`},
		{"truncated", `{"project_tasks": "deny"`, `line 1, column 25: unexpected end of the document`},
		{"not an object", `["deny"]`, `line 1, column 1: the policy must be an object`},
		{"trailing", `{} {}`, `line 1, column 4: unexpected data after the policy object`},
		{"trailing comma", "{}\n,", `line 2, column 1: unexpected data after the policy object`},
		{"group not object", `{"audit": "otlp"}`, `line 1, column 11: audit must be an object`},
		{"empty", ``, `line 1, column 1: unexpected end of the document`},
		{"not utf-8", "{\"project_tasks\": \"d\xffny\"}", `line 1, column 21: the document is not UTF-8`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}
