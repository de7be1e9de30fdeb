package gen

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"strings"

	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/skills"
	"github.com/windows-dev-agent/wda/tools"
)

// PolicyRoot holds the Group Policy templates (docs/policy.md, "Group Policy"):
// WindowsDevAgent.admx and en-US/WindowsDevAgent.adml, rendered from policy.Settings,
// the table the runtime's parser and registry reader use.
const PolicyRoot = "policy"

// Paths of the templates under dist/.
var (
	ADMXPath = path.Join(PolicyRoot, "WindowsDevAgent.admx")
	ADMLPath = path.Join(PolicyRoot, "en-US", "WindowsDevAgent.adml")
)

const (
	admxNamespace = "http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions"
	admxCategory  = "WindowsDevAgent"
	admxSupported = "SUPPORTED_WindowsDevAgent"
	// documentMaxLength is the text box limit of the whole-document policy: the most
	// a REG_SZ the Group Policy editor writes from a text element may hold.
	documentMaxLength = 32767
)

func renderPolicy(_ *tools.Registry, _ []skills.Skill, files map[string][]byte) error {
	admx, adml := policyTemplates()
	files[ADMXPath], files[ADMLPath] = admx, adml
	return nil
}

// x escapes s for an XML attribute or text.
func x(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// policyTemplates renders the ADMX and its English ADML: one policy for the whole
// document (value Policy) and one per setting, each for both the computer (HKLM) and
// the user (HKCU), every id derived from the setting's registry value name.
func policyTemplates() (admx, adml []byte) {
	var p, strs, pres strings.Builder
	str := func(id, text string) { fmt.Fprintf(&strs, "      <string id=\"%s\">%s</string>\n", id, x(text)) }
	str(admxCategory, "Windows Dev Agent")
	str(admxSupported, "Windows Dev Agent (every version that reads the managed policy)")
	open := func(name, valueName, presentation string) {
		fmt.Fprintf(&p, "    <policy name=\"%s\" class=\"Both\" displayName=\"$(string.%s)\" explainText=\"$(string.%s_Help)\"", name, name, name)
		if presentation != "" {
			fmt.Fprintf(&p, " presentation=\"$(presentation.%s)\"", presentation)
		}
		fmt.Fprintf(&p, " key=\"%s\"", x(policy.RegistryPath))
		if valueName != "" {
			fmt.Fprintf(&p, " valueName=\"%s\"", valueName)
		}
		fmt.Fprintf(&p, ">\n      <parentCategory ref=\"%s\" />\n      <supportedOn ref=\"%s\" />\n", admxCategory, admxSupported)
	}

	doc := policy.DocumentValue
	str(doc, "Policy document (JSON)")
	str(doc+"_Help", "The whole managed policy as one JSON document (docs/policy.md in the Windows Dev Agent repository gives the schema). "+
		"A setting given here must not also be set by its own policy in this category: that is an error, and the agent then refuses every call that would execute. "+
		"Unknown keys are errors too. Registry value: "+doc+" (REG_SZ).")
	open(doc, "", doc)
	fmt.Fprintf(&p, "      <elements>\n        <text id=\"%s\" valueName=\"%s\" maxLength=\"%d\" required=\"true\" />\n      </elements>\n    </policy>\n", doc, doc, documentMaxLength)
	fmt.Fprintf(&pres, "      <presentation id=\"%s\">\n        <textBox refId=\"%s\">\n          <label>JSON:</label>\n        </textBox>\n      </presentation>\n", doc, doc)

	for _, s := range policy.Settings {
		n := s.Value
		str(n, s.Title)
		help := s.Help + " Policy key: " + s.Path + "."
		switch s.Kind {
		case policy.List:
			help += " Registry: one REG_SZ per item in the subkey " + n + "."
		case policy.Pairs:
			help += " Registry: the subkey " + n + ", one REG_SZ per entry (value name = header name)."
		default:
			help += " Registry value: " + n + "."
		}
		if s.Enum != nil {
			help += " Values: " + strings.Join(s.Enum, ", ") + "."
		}
		str(n+"_Help", help)
		switch s.Kind {
		case policy.Bool:
			open(n, n, "")
			p.WriteString("      <enabledValue>\n        <decimal value=\"1\" />\n      </enabledValue>\n      <disabledValue>\n        <decimal value=\"0\" />\n      </disabledValue>\n    </policy>\n")
			continue
		case policy.Enum:
			open(n, "", n)
			fmt.Fprintf(&p, "      <elements>\n        <enum id=\"%s\" valueName=\"%s\" required=\"true\">\n", n, n)
			for _, v := range s.Enum {
				item := n + "_" + strings.NewReplacer("-", "_", "/", "_").Replace(v)
				str(item, v)
				fmt.Fprintf(&p, "          <item displayName=\"$(string.%s)\">\n            <value>\n              <string>%s</string>\n            </value>\n          </item>\n", item, x(v))
			}
			p.WriteString("        </enum>\n      </elements>\n    </policy>\n")
			fmt.Fprintf(&pres, "      <presentation id=\"%s\">\n        <dropdownList refId=\"%s\" noSort=\"true\" defaultItem=\"0\">%s</dropdownList>\n      </presentation>\n", n, n, x(s.Title+":"))
		case policy.Text:
			open(n, "", n)
			fmt.Fprintf(&p, "      <elements>\n        <text id=\"%s\" valueName=\"%s\" required=\"true\" />\n      </elements>\n    </policy>\n", n, n)
			fmt.Fprintf(&pres, "      <presentation id=\"%s\">\n        <textBox refId=\"%s\">\n          <label>%s</label>\n        </textBox>\n      </presentation>\n", n, n, x(s.Title+":"))
		case policy.Number:
			open(n, "", n)
			fmt.Fprintf(&p, "      <elements>\n        <decimal id=\"%s\" valueName=\"%s\" minValue=\"%d\" maxValue=\"%d\" required=\"true\" />\n      </elements>\n    </policy>\n", n, n, s.Min, s.Max)
			fmt.Fprintf(&pres, "      <presentation id=\"%s\">\n        <decimalTextBox refId=\"%s\" defaultValue=\"%d\" spinStep=\"1\">%s</decimalTextBox>\n      </presentation>\n", n, n, s.Min, x(s.Title+":"))
		case policy.List, policy.Pairs:
			open(n, "", n)
			attrs := `valuePrefix=""`
			if s.Kind == policy.Pairs {
				attrs = `explicitValue="true"`
			}
			fmt.Fprintf(&p, "      <elements>\n        <list id=\"%s\" key=\"%s\" %s />\n      </elements>\n    </policy>\n", n, x(policy.RegistryPath+`\`+n), attrs)
			fmt.Fprintf(&pres, "      <presentation id=\"%s\">\n        <listBox refId=\"%s\">%s</listBox>\n      </presentation>\n", n, n, x(s.Title+":"))
		}
	}

	head := `<?xml version="1.0" encoding="utf-8"?>
<!-- Generated by gen from internal/policy's settings table (docs/policy.md); DO NOT EDIT. -->
`
	admx = fmt.Appendf(nil, `%s<policyDefinitions xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0" schemaVersion="1.0" xmlns="%s">
  <policyNamespaces>
    <target prefix="windowsdevagent" namespace="WindowsDevAgent.Policies.WindowsDevAgent" />
  </policyNamespaces>
  <resources minRequiredRevision="1.0" />
  <supportedOn>
    <definitions>
      <definition name="%s" displayName="$(string.%s)" />
    </definitions>
  </supportedOn>
  <categories>
    <category name="%s" displayName="$(string.%s)" />
  </categories>
  <policies>
%s  </policies>
</policyDefinitions>
`, head, admxNamespace, admxSupported, admxSupported, admxCategory, admxCategory, p.String())
	adml = fmt.Appendf(nil, `%s<policyDefinitionResources xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" revision="1.0" schemaVersion="1.0" xmlns="%s">
  <displayName>Windows Dev Agent</displayName>
  <description>Managed policy of Windows Dev Agent: rules the developer, the model and a project cannot loosen.</description>
  <resources>
    <stringTable>
%s    </stringTable>
    <presentationTable>
%s    </presentationTable>
  </resources>
</policyDefinitionResources>
`, head, admxNamespace, strs.String(), pres.String())
	return admx, adml
}
