package gen

import (
	"encoding/xml"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/policy"
)

type admxDoc struct {
	XMLName  xml.Name                           `xml:"http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions policyDefinitions"`
	Target   struct{ Prefix, Namespace string } `xml:"policyNamespaces>target"`
	Category []struct {
		Name        string `xml:"name,attr"`
		DisplayName string `xml:"displayName,attr"`
	} `xml:"categories>category"`
	Policies []admxPolicy `xml:"policies>policy"`
}

type admxPolicy struct {
	Name         string `xml:"name,attr"`
	Class        string `xml:"class,attr"`
	DisplayName  string `xml:"displayName,attr"`
	ExplainText  string `xml:"explainText,attr"`
	Presentation string `xml:"presentation,attr"`
	Key          string `xml:"key,attr"`
	ValueName    string `xml:"valueName,attr"`
	Parent       struct {
		Ref string `xml:"ref,attr"`
	} `xml:"parentCategory"`
	Enabled *struct {
		Decimal struct {
			Value string `xml:"value,attr"`
		} `xml:"decimal"`
	} `xml:"enabledValue"`
	Disabled *struct {
		Decimal struct {
			Value string `xml:"value,attr"`
		} `xml:"decimal"`
	} `xml:"disabledValue"`
	Elements struct {
		Any []struct {
			XMLName       xml.Name
			ID            string `xml:"id,attr"`
			ValueName     string `xml:"valueName,attr"`
			Key           string `xml:"key,attr"`
			ExplicitValue string `xml:"explicitValue,attr"`
			MinValue      string `xml:"minValue,attr"`
			MaxValue      string `xml:"maxValue,attr"`
			Items         []struct {
				DisplayName string `xml:"displayName,attr"`
				Value       string `xml:"value>string"`
			} `xml:"item"`
		} `xml:",any"`
	} `xml:"elements"`
}

type admlDoc struct {
	XMLName xml.Name `xml:"http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions policyDefinitionResources"`
	Strings []struct {
		ID   string `xml:"id,attr"`
		Text string `xml:",chardata"`
	} `xml:"resources>stringTable>string"`
	Presentations []struct {
		ID       string `xml:"id,attr"`
		Controls []struct {
			XMLName xml.Name
			RefID   string `xml:"refId,attr"`
		} `xml:",any"`
	} `xml:"resources>presentationTable>presentation"`
}

var refRE = regexp.MustCompile(`^\$\((string|presentation)\.([A-Za-z0-9_]+)\)$`)

// TestPolicyTemplates checks the ADMX and ADML as Group Policy reads them: both parse
// as XML in the PolicyDefinitions namespace; every string and presentation the ADMX
// references exists in the ADML and every presentation control refers to an element
// of its policy; ids are unique; every policy writes under the policy key exactly the
// registry values the runtime reads (policy.Settings), enums offer exactly the
// setting's values, booleans write 1 and 0; and every value the templates can write
// is accepted by the runtime's registry reader.
func TestPolicyTemplates(t *testing.T) {
	admxB, admlB := policyTemplates()
	var admx admxDoc
	var adml admlDoc
	if err := xml.Unmarshal(admxB, &admx); err != nil {
		t.Fatalf("ADMX: %v", err)
	}
	if err := xml.Unmarshal(admlB, &adml); err != nil {
		t.Fatalf("ADML: %v", err)
	}
	strs := map[string]string{}
	for _, s := range adml.Strings {
		if _, dup := strs[s.ID]; dup {
			t.Errorf("string id %s twice", s.ID)
		}
		if strings.TrimSpace(s.Text) == "" {
			t.Errorf("string %s is empty", s.ID)
		}
		strs[s.ID] = s.Text
	}
	pres := map[string][]string{}
	for _, p := range adml.Presentations {
		if _, dup := pres[p.ID]; dup {
			t.Errorf("presentation id %s twice", p.ID)
		}
		for _, c := range p.Controls {
			pres[p.ID] = append(pres[p.ID], c.RefID)
		}
	}
	ref := func(kind, r string) {
		t.Helper()
		m := refRE.FindStringSubmatch(r)
		if m == nil || m[1] != kind {
			t.Errorf("%q is not a $(%s.id) reference", r, kind)
			return
		}
		if _, ok := strs[m[2]]; kind == "string" && !ok {
			t.Errorf("string %s is referenced but not in the ADML", m[2])
		}
		if _, ok := pres[m[2]]; kind == "presentation" && !ok {
			t.Errorf("presentation %s is referenced but not in the ADML", m[2])
		}
	}
	if len(admx.Category) != 1 {
		t.Fatalf("categories %v", admx.Category)
	}
	ref("string", admx.Category[0].DisplayName)

	kv := policy.KeyValues{Subkeys: map[string][]policy.Value{}}
	names, ids := map[string]bool{}, map[string]bool{}
	covered := map[string]bool{}
	for _, p := range admx.Policies {
		if names[p.Name] {
			t.Errorf("policy %s twice", p.Name)
		}
		names[p.Name] = true
		ref("string", p.DisplayName)
		ref("string", p.ExplainText)
		if p.Class != "Both" || p.Key != policy.RegistryPath || p.Parent.Ref != admx.Category[0].Name {
			t.Errorf("policy %s: class %q key %q category %q", p.Name, p.Class, p.Key, p.Parent.Ref)
		}
		var elemIDs []string
		for _, e := range p.Elements.Any {
			if ids[e.ID] {
				t.Errorf("element id %s twice", e.ID)
			}
			ids[e.ID] = true
			elemIDs = append(elemIDs, e.ID)
		}
		if p.Presentation != "" {
			ref("presentation", p.Presentation)
			for _, r := range pres[strings.TrimSuffix(strings.TrimPrefix(p.Presentation, "$(presentation."), ")")] {
				if !slices.Contains(elemIDs, r) {
					t.Errorf("policy %s: presentation control refers to %s, not an element of it", p.Name, r)
				}
			}
		} else if len(elemIDs) > 0 {
			t.Errorf("policy %s has elements but no presentation", p.Name)
		}
		if p.Name == policy.DocumentValue {
			if len(p.Elements.Any) != 1 || p.Elements.Any[0].XMLName.Local != "text" || p.Elements.Any[0].ValueName != policy.DocumentValue {
				t.Errorf("the document policy does not write the %s text value: %+v", policy.DocumentValue, p.Elements)
			}
			covered[p.Name] = true
			continue
		}
		i := slices.IndexFunc(policy.Settings, func(s policy.Setting) bool { return s.Value == p.Name })
		if i < 0 {
			t.Errorf("policy %s is no setting of policy.Settings", p.Name)
			continue
		}
		s := policy.Settings[i]
		covered[p.Name] = true
		switch s.Kind {
		case policy.Bool:
			if p.ValueName != s.Value || p.Enabled == nil || p.Enabled.Decimal.Value != "1" || p.Disabled == nil || p.Disabled.Decimal.Value != "0" {
				t.Errorf("boolean policy %s: %+v", p.Name, p)
			}
			kv.Values = append(kv.Values, policy.Value{Name: p.ValueName, Type: policy.DWord, Number: 1})
			continue
		}
		if len(p.Elements.Any) != 1 {
			t.Errorf("policy %s: %d elements, want 1", p.Name, len(p.Elements.Any))
			continue
		}
		e := p.Elements.Any[0]
		want := map[policy.Kind]string{policy.List: "list", policy.Pairs: "list", policy.Enum: "enum", policy.Text: "text", policy.Number: "decimal"}[s.Kind]
		if e.XMLName.Local != want {
			t.Errorf("policy %s: element %s, want %s", p.Name, e.XMLName.Local, want)
		}
		switch s.Kind {
		case policy.List, policy.Pairs:
			if e.Key != policy.RegistryPath+`\`+s.Value || (s.Kind == policy.Pairs) != (e.ExplicitValue == "true") {
				t.Errorf("list %s: key %q explicitValue %q", p.Name, e.Key, e.ExplicitValue)
			}
			item := "x-item"
			switch {
			case s.Enum != nil:
				item = s.Enum[0]
			case s.Path == "disabled_tools":
				item = "tool_discover"
			case s.Path == "packages.allowed_ids":
				item = "Git.Git"
			}
			kv.Subkeys[s.Value] = []policy.Value{{Name: "1", Type: policy.String, String: item}}
		case policy.Enum:
			var got []string
			for _, it := range e.Items {
				ref("string", it.DisplayName)
				got = append(got, it.Value)
			}
			if e.ValueName != s.Value || !slices.Equal(got, s.Enum) {
				t.Errorf("enum %s: value %q items %v, want %v", p.Name, e.ValueName, got, s.Enum)
			}
			kv.Values = append(kv.Values, policy.Value{Name: e.ValueName, Type: policy.String, String: got[len(got)-1]})
		case policy.Text:
			if e.ValueName != s.Value {
				t.Errorf("text %s: value %q", p.Name, e.ValueName)
			}
			kv.Values = append(kv.Values, policy.Value{Name: e.ValueName, Type: policy.String, String: "https://otel.example.com"})
		case policy.Number:
			if e.ValueName != s.Value || e.MinValue != strconv.Itoa(s.Min) || e.MaxValue != strconv.Itoa(s.Max) {
				t.Errorf("decimal %s: %+v", p.Name, e)
			}
			kv.Values = append(kv.Values, policy.Value{Name: e.ValueName, Type: policy.DWord, Number: uint64(s.Max)})
		}
	}
	for _, s := range policy.Settings {
		if !covered[s.Value] {
			t.Errorf("setting %s has no policy", s.Path)
		}
	}
	// Everything the per-setting policies can write at once is one valid policy.
	key := policy.Key{Root: "HKLM", Path: policy.RegistryPath}
	st := policy.Load(policy.Sources{Registry: policy.MapRegistry{key.String(): kv}, Machine: key})
	if st.Err != nil || st.Policy == nil {
		t.Errorf("the runtime refuses what the templates write: %v", st.Err)
	}
}
