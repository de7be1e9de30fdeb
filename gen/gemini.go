package gen

import (
	"bytes"
	"path"
	"text/template"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// GeminiRoot is the Gemini CLI extension payload (docs/hosts/gemini.md).
const GeminiRoot = "gemini"

// GeminiPolicyPath is the extension's policy file: Gemini CLI loads an extension's
// policies/*.toml at the extension tier and drops any allow rule from it, so the
// extension can only tighten.
const GeminiPolicyPath = "policies/" + wda.ServerName + ".toml"

// GeminiToolTimeoutMS is the MCP request timeout of the extension's server: above the
// runtime's 600 s execution ceiling, as for Codex.
const GeminiToolTimeoutMS = CodexToolTimeout * 1000

type geminiServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	Timeout int               `json:"timeout"`
}

type geminiExtension struct {
	Name            string                  `json:"name"`
	Version         string                  `json:"version"`
	Description     string                  `json:"description"`
	ContextFileName string                  `json:"contextFileName"`
	MCPServers      map[string]geminiServer `json:"mcpServers"`
}

// geminiContextFile is the extension's context file, loaded into every session.
const geminiContextFile = "GEMINI.md"

func renderGemini(reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	ext := geminiExtension{
		Name:            wda.ServerName,
		Version:         wda.Version,
		Description:     "Windows development over MCP: environment discovery, capability routing with reviewed plans, package setup, isolation and ecosystem audits.",
		ContextFileName: geminiContextFile,
		MCPServers: map[string]geminiServer{wda.ServerName: {
			// Gemini expands these variables in an extension's server entry; ${/} is
			// the platform separator, and its spawner (cross-spawn) finds bin\wda.exe
			// for the extensionless path on Windows through PATHEXT.
			Command: "${extensionPath}${/}bin${/}wda",
			Args:    []string{"mcp", "--host", "gemini"},
			Cwd:     "${workspacePath}",
			Env:     map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": "${workspacePath}"},
			Timeout: GeminiToolTimeoutMS,
		}},
	}
	b, err := MarshalJSON(ext)
	if err != nil {
		return err
	}
	files[path.Join(GeminiRoot, "gemini-extension.json")] = b
	policy, err := geminiPolicy(reg)
	if err != nil {
		return err
	}
	files[path.Join(GeminiRoot, GeminiPolicyPath)] = policy
	for _, s := range all {
		files[path.Join(GeminiRoot, "skills", s.Name, "SKILL.md")] = s.Body
	}
	if err := renderHostTemplate("GEMINI.md", path.Join(GeminiRoot, geminiContextFile), "Gemini CLI", reg, all, files); err != nil {
		return err
	}
	return renderPayloadDocs(GeminiRoot, "Gemini CLI", reg, all, files)
}

// renderPayloadDocs renders a payload's README.md and copies the LICENSE.
func renderPayloadDocs(root, hostName string, reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	if err := renderHostTemplate("host-README.md", path.Join(root, "README.md"), hostName, reg, all, files); err != nil {
		return err
	}
	return renderHostTemplate("LICENSE", path.Join(root, "LICENSE"), "", reg, all, files)
}

// renderHostTemplate renders one of templates/ for a host payload.
func renderHostTemplate(tmpl, dest, hostName string, reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	t, err := template.ParseFS(templates, path.Join("templates", tmpl))
	if err != nil {
		return err
	}
	var ts []toolDoc
	for _, tl := range reg.Tools() {
		ts = append(ts, toolDoc{tl.Name(), tl.Title(), safetyLine(tl)})
	}
	d := docData{Plugin: wda.ServerName, DisplayName: displayName, Version: wda.Version, Homepage: homepage,
		Host: hostName, Tools: ts, Skills: all}
	var buf bytes.Buffer
	if err := t.Execute(&buf, d); err != nil {
		return err
	}
	files[dest] = buf.Bytes()
	return nil
}
