package codex

import (
	"errors"
	"fmt"
	"sync"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/hookscope"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Refusals of the project argument (docs/hosts/codex.md). The "Not a directory: …"
// refusal comes from internal/platform/contain.
const (
	MsgNotString   = "Current Codex project directory must be a string"
	MsgRequired    = "Current Codex project directory is required for this tool"
	MsgNotAbsolute = "Current Codex project directory must be an absolute path"
)

// ProjectArgDescription describes a project argument that tools/list adds when a
// project-scoped tool's schema lacks it.
const ProjectArgDescription = "Absolute current Codex project directory; never the plugin cache."

// absolute is the argument checks Codex shares with the other hosts that tell the
// server no project; its messages are the constants above (a test keeps them equal).
var absolute = host.Absolute{Project: "Current Codex project directory", Never: "the plugin cache"}

// HooksInactiveNotice is told once per session, as the first text of a call's result,
// when a call of this server arrives without the hand-over of the trusted PreToolUse
// hook (internal/hookscope): the hook layer is not running.
const HooksInactiveNotice = "Windows Dev Agent: this plugin's Codex hooks are not running in this session " +
	"(they are new or changed and not yet trusted, or they are turned off). Without them Codex's own " +
	"approval is the only boundary: forbidden shell commands are not denied and project paths are not " +
	"checked against the session's directory. To turn them on, review and trust the plugin's hooks " +
	"in Codex (it lists hooks that need review), then start a new session."

// Host is the Codex adapter. Create it with New.
type Host struct {
	dataDir string

	mu       sync.Mutex
	inactive map[string]bool // sessions whose calls came without a hook hand-over
	told     map[string]bool // sessions already told so
}

// New returns the Codex adapter whose hooks hand their checks over in dataDir (the
// data directory the hooks and the server share; "" disables the hand-over).
func New(dataDir string) *Host {
	return &Host{dataDir: dataDir, inactive: map[string]bool{}, told: map[string]bool{}}
}

// Name is "codex".
func (*Host) Name() string { return "codex" }

// Instructions is the initialize instructions.
func (*Host) Instructions() string { return Instructions }

// AdvertisedSchema returns a copy of s whose required list includes the tool's project
// argument (adding the property when s lacks it). s itself is never modified: it is the
// schema the validator and every other host share.
func (*Host) AdvertisedSchema(t tools.Tool, s *schema.Schema) *schema.Schema {
	return absolute.AdvertisedSchema(t, s)
}

// Bind checks the project argument (string, non-blank, absolute, an existing directory)
// and opens that directory. Codex tells the server nothing about the session's
// project; when the trusted PreToolUse hook handed this call's session directory over
// (internal/hookscope), the directory is opened inside it, so the containment the hook
// checked is checked again on what the call uses. Without a hand-over the hooks are not
// running: the directory is opened as named and the session is told once (Notice).
func (h *Host) Bind(t tools.Tool, v any, c host.Call) (*tools.Project, error) {
	s, err := absolute.Path(v)
	if err != nil {
		return nil, err
	}
	rec, ok := h.handedOver(c)
	if !ok {
		return absolute.Bind(t, s, c)
	}
	session := contain.Root{Path: rec.Cwd, Lexical: rec.Cwd}
	p, err := session.Open(s)
	var nd *contain.NotDirError
	switch {
	case err == nil:
		return p, nil
	case errors.As(err, &nd):
		return nil, &host.BindError{Msg: nd.Error()}
	}
	return nil, &host.BindError{Msg: fmt.Sprintf("%s must stay inside the session project directory: %s", t.ProjectArg(), rec.Cwd)}
}

// handedOver takes the hook's hand-over for c; without one it marks c's session as
// running without hooks.
func (h *Host) handedOver(c host.Call) (hookscope.Record, bool) {
	if h.dataDir != "" && c.ID != "" {
		if rec, ok := hookscope.Take(h.dataDir, c.ID); ok && (rec.Session == "" || c.Session == "" || rec.Session == c.Session) {
			return rec, true
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inactive[c.Session] = true
	return hookscope.Record{}, false
}

// Notice is HooksInactiveNotice, once per session, after a call of that session came
// without a hook hand-over. Bind took the hand-over of a project-scoped call; a call of
// any other tool takes its own here.
func (h *Host) Notice(t tools.Tool, c host.Call) string {
	if t.ProjectArg() == "" {
		h.handedOver(c)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.inactive[c.Session] || h.told[c.Session] {
		return ""
	}
	h.told[c.Session] = true
	return HooksInactiveNotice
}
