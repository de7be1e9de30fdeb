package payload

import (
	"bytes"
	"encoding/xml"
	"flag"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), got, *update)
}

// A share path with every XML-special character, as a Windows user name could carry.
const hostileShare = `C:\Users\a&b <c> "d" 'e'\AppData\Local\windows-dev-agent\sandbox-runs\run-123\share`

func TestWSBGolden(t *testing.T) {
	t.Parallel()
	got, err := WSB(hostileShare)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "run.wsb.golden", got)
}

// TestWSBContract parses the config back and asserts each setting the contract names.
func TestWSBContract(t *testing.T) {
	t.Parallel()
	got, err := WSB(hostileShare)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		XMLName xml.Name
		Mapped  []struct {
			HostFolder, SandboxFolder, ReadOnly string
		} `xml:"MappedFolders>MappedFolder"`
		Logon string `xml:"LogonCommand>Command"`
	}
	dec := xml.NewDecoder(bytes.NewReader(got))
	dec.Strict = true
	if err := dec.Decode(&cfg); err != nil {
		t.Fatalf("run.wsb is not valid XML: %v", err)
	}
	if cfg.XMLName.Local != "Configuration" {
		t.Fatalf("root = %s", cfg.XMLName.Local)
	}
	// The root's children in order, with their text.
	var order []string
	dec = xml.NewDecoder(bytes.NewReader(got))
	depth, text := 0, ""
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			depth++
			text = ""
		case xml.CharData:
			text += strings.TrimSpace(string(tk))
		case xml.EndElement:
			if depth == 2 {
				order = append(order, tk.Name.Local+"="+text)
			}
			depth--
			text = ""
		}
	}
	want := []string{"vGPU=Disable", "Networking=Disable", "AudioInput=Disable", "VideoInput=Disable",
		"PrinterRedirection=Disable", "ClipboardRedirection=Disable", "MappedFolders=", "LogonCommand="}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Fatalf("elements (-want +got):\n%s", diff)
	}
	if len(cfg.Mapped) != 1 || cfg.Mapped[0].HostFolder != hostileShare || cfg.Mapped[0].SandboxFolder != `C:\WDAShare` || cfg.Mapped[0].ReadOnly != "true" {
		t.Fatalf("mapped folders = %+v", cfg.Mapped)
	}
	if cfg.Logon != `cmd /d /s /c C:\WDAShare\run.cmd` {
		t.Fatalf("logon command = %q", cfg.Logon)
	}
}

// TestStagedWSB: the staged config maps exactly the share and never names itself.
func TestStagedWSB(t *testing.T) {
	t.Parallel()
	ws, data := t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"f": "f"})
	b, err := Stage(data, mustValidate(t, ws, "f"), "x")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(b.Config)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(b.Config) != b.Dir {
		t.Fatalf("run.wsb at %s, want the bundle root", b.Config)
	}
	if strings.Contains(string(got), b.Config) || strings.Contains(string(got), ConfigFile) {
		t.Fatalf("run.wsb names itself:\n%s", got)
	}
	var esc bytes.Buffer
	xml.EscapeText(&esc, []byte(b.Share))
	if !strings.Contains(string(got), "<HostFolder>"+esc.String()+"</HostFolder>") {
		t.Fatalf("run.wsb does not map the share %s:\n%s", b.Share, got)
	}
}

func TestRunCmdGolden(t *testing.T) {
	t.Parallel()
	golden(t, "run.cmd.golden", RunCmd(`python -m pytest -q & echo "done" ^| more`))
}

func TestRunCmdShape(t *testing.T) {
	t.Parallel()
	got := string(RunCmd("first\nsecond\r\nthird\rfourth"))
	if strings.Contains(strings.ReplaceAll(got, "\r\n", ""), "\n") || strings.Contains(strings.ReplaceAll(got, "\r\n", ""), "\r") {
		t.Fatalf("run.cmd has a bare CR or LF: %q", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\r\n"), "\r\n")
	want := []string{"@echo off", `cd /d C:\WDAShare\payload`, "first", "second", "third", "fourth",
		`set "WDA_EXIT_CODE=%ERRORLEVEL%"`, "echo.", "echo Windows Dev Agent command exit code: %WDA_EXIT_CODE%", "pause"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Fatalf("run.cmd lines (-want +got):\n%s", diff)
	}
}
