package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// RegistryRoot holds the MCP Registry entry (docs/hosts/mcp-registry.md).
const RegistryRoot = "registry"

// RegistryTemplatePath is the committed server.json template under dist/. Its
// fileSha256 values are placeholders: a bundle's hash is only known once the release
// has packed it, so the release fills them with FillServerJSON and publishes the
// result, never the template.
const RegistryTemplatePath = RegistryRoot + "/server.json"

// RegistrySchema is the server.json schema the registry's publisher v1.8.9 calls
// current (model.CurrentSchemaURL).
const RegistrySchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// RegistryName is the server's registry name; io.github.<owner>/ is the namespace a
// GitHub login of the owner may publish to.
const RegistryName = "io.github.windows-dev-agent/" + wda.ServerName

// MCPBArchs are the Windows architectures the release packs a bundle for.
var MCPBArchs = []string{"amd64", "arm64"}

// ReleaseTag is the git tag whose GitHub release carries this version's assets.
const ReleaseTag = "v" + wda.Version

// MCPBAsset is the file name of this version's bundle for one Windows architecture.
func MCPBAsset(arch string) string { return MCPBAssetName(wda.Version, arch) }

// MCPBAssetName is the file name of a version's bundle for one Windows architecture
// (the release packs the version of its source commit, which need not be this one).
func MCPBAssetName(version, arch string) string {
	return fmt.Sprintf("%s-%s-windows-%s.mcpb", wda.ServerName, version, arch)
}

// MCPBAssetURL is where the release publishes MCPBAsset(arch).
func MCPBAssetURL(arch string) string {
	return strings.TrimSuffix(homepage, "/") + "/releases/download/" + ReleaseTag + "/" + MCPBAsset(arch)
}

// shaPlaceholderPrefix starts a fileSha256 placeholder, followed by the asset's file
// name and "}". It can never pass the schema's ^[a-f0-9]{64}$, so an unfilled
// template is refused by every validator.
const shaPlaceholderPrefix = "${sha256:"

func shaPlaceholder(asset string) string { return shaPlaceholderPrefix + asset + "}" }

var shaPlaceholderRE = regexp.MustCompile(`\$\{sha256:([^}"]+)\}`)
var sha256RE = regexp.MustCompile(`^[a-f0-9]{64}$`)

type registryRepository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

type registryTransport struct {
	Type string `json:"type"`
}

type registryPackage struct {
	RegistryType string            `json:"registryType"`
	Identifier   string            `json:"identifier"`
	Version      string            `json:"version"`
	FileSha256   string            `json:"fileSha256"`
	Transport    registryTransport `json:"transport"`
}

type registryServer struct {
	Schema      string             `json:"$schema"`
	Name        string             `json:"name"`
	Title       string             `json:"title"`
	Description string             `json:"description"`
	Version     string             `json:"version"`
	Repository  registryRepository `json:"repository"`
	WebsiteURL  string             `json:"websiteUrl"`
	Packages    []registryPackage  `json:"packages"`
}

func renderRegistry(reg *tools.Registry, all []skills.Skill, files map[string][]byte) error {
	s := registryServer{
		Schema:      RegistrySchema,
		Name:        RegistryName,
		Title:       displayName,
		Description: "Windows development tools: environment discovery, planned runs, package setup, isolation, audits.",
		Version:     wda.Version,
		Repository:  registryRepository{URL: homepage, Source: "github"},
		WebsiteURL:  homepage,
	}
	for _, arch := range MCPBArchs {
		// The arguments (mcp --host mcpb) live in the bundle's mcp_config.
		s.Packages = append(s.Packages, registryPackage{RegistryType: "mcpb", Identifier: MCPBAssetURL(arch),
			Version: wda.Version, FileSha256: shaPlaceholder(MCPBAsset(arch)), Transport: registryTransport{Type: "stdio"}})
	}
	if len(s.Description) > 100 {
		return fmt.Errorf("gen: the registry description is %d characters; the schema allows 100", len(s.Description))
	}
	b, err := MarshalJSON(s)
	if err != nil {
		return err
	}
	files[RegistryTemplatePath] = b
	return renderHostTemplate("host-README.md", path.Join(RegistryRoot, "README.md"), "MCP Registry", reg, all, files)
}

// FillServerJSON replaces every fileSha256 placeholder of the server.json template
// with the SHA-256 sum returns for the named asset (the release computes it from the
// final .mcpb, byte for byte). Every sum must be 64 lowercase hex characters, and the
// result must hold no placeholder.
func FillServerJSON(template []byte, sum func(asset string) (string, error)) ([]byte, error) {
	var firstErr error
	out := shaPlaceholderRE.ReplaceAllFunc(template, func(m []byte) []byte {
		asset := string(shaPlaceholderRE.FindSubmatch(m)[1])
		if path.Base(asset) != asset {
			firstErr = fmt.Errorf("placeholder names %q, not a file name", asset)
			return m
		}
		s, err := sum(asset)
		if err == nil && !sha256RE.MatchString(s) {
			err = fmt.Errorf("sha256 of %s is %q, want 64 lowercase hex characters", asset, s)
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return m
		}
		return []byte(s)
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if bytes.Contains(out, []byte(shaPlaceholderPrefix)) {
		return nil, fmt.Errorf("server.json still holds a placeholder")
	}
	if !json.Valid(out) {
		return nil, fmt.Errorf("filled server.json is not JSON")
	}
	return out, nil
}
