package payload

import (
	"encoding/xml"
	"strings"
)

// Sandbox-side names (docs/tools/sandbox_run.md, staging).
const (
	// SandboxFolder is where the share appears inside the Sandbox.
	SandboxFolder = `C:\WDAShare`
	// SandboxPayload is the inner command's working directory.
	SandboxPayload = SandboxFolder + `\payload`
	// LogonCommand runs the share's run.cmd at Sandbox logon.
	LogonCommand = `cmd /d /s /c ` + SandboxFolder + `\` + ScriptFile
)

// wsbConfig is run.wsb. Field order is the element order.
type wsbConfig struct {
	XMLName              xml.Name        `xml:"Configuration"`
	VGpu                 string          `xml:"vGPU"`
	Networking           string          `xml:"Networking"`
	AudioInput           string          `xml:"AudioInput"`
	VideoInput           string          `xml:"VideoInput"`
	PrinterRedirection   string          `xml:"PrinterRedirection"`
	ClipboardRedirection string          `xml:"ClipboardRedirection"`
	MappedFolders        []wsbMapped     `xml:"MappedFolders>MappedFolder"`
	LogonCommand         wsbLogonCommand `xml:"LogonCommand"`
}

type wsbMapped struct {
	HostFolder    string `xml:"HostFolder"`
	SandboxFolder string `xml:"SandboxFolder"`
	ReadOnly      string `xml:"ReadOnly"`
}

type wsbLogonCommand struct {
	Command string `xml:"Command"`
}

// WSB renders run.wsb for the share folder: every redirection off, only the share
// mapped, read-only, and the logon script. encoding/xml escapes the host path.
func WSB(share string) ([]byte, error) {
	const off = "Disable"
	cfg := wsbConfig{
		VGpu: off, Networking: off, AudioInput: off, VideoInput: off,
		PrinterRedirection: off, ClipboardRedirection: off,
		MappedFolders: []wsbMapped{{HostFolder: share, SandboxFolder: SandboxFolder, ReadOnly: "true"}},
		LogonCommand:  wsbLogonCommand{Command: LogonCommand},
	}
	out, err := xml.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// RunCmd renders run.cmd (CRLF): echo off, change drive and directory to the payload,
// the command verbatim on its own line(s) for cmd.exe inside the Sandbox, then report
// its exit code and pause so the window stays for the user to read.
func RunCmd(command string) []byte {
	command = strings.ReplaceAll(command, "\r\n", "\n")
	command = strings.ReplaceAll(command, "\r", "\n")
	lines := []string{
		"@echo off",
		"cd /d " + SandboxPayload,
		command,
		`set "WDA_EXIT_CODE=%ERRORLEVEL%"`,
		"echo.",
		"echo Windows Dev Agent command exit code: %WDA_EXIT_CODE%",
		"pause",
	}
	return []byte(strings.ReplaceAll(strings.Join(lines, "\n"), "\n", "\r\n") + "\r\n")
}
