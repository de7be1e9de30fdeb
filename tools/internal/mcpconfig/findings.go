package mcpconfig

import (
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Finding is one risk in a config (docs/tools/mcp_audit.md, "Findings"). Detail is
// written from a fixed vocabulary plus key names (an env key, a header name, an
// argument's position); it never holds a value from the config.
type Finding struct {
	Rule     string `json:"rule" jsonschema:"required"`
	Severity string `json:"severity" jsonschema:"required,enum=high,enum=medium,enum=low"`
	Server   string `json:"server,omitempty"`
	File     string `json:"file" jsonschema:"required"`
	Line     int    `json:"line,omitempty"`
	Detail   string `json:"detail" jsonschema:"required"`
}

// Rule ids (docs/tools/mcp_audit.md, "Findings"); stable, callers match on them.
const (
	RuleSecretLiteral     = "secret_literal"
	RuleUnpinnedLauncher  = "unpinned_launcher"
	RuleBroadRoot         = "broad_filesystem_root"
	RulePlainHTTP         = "plain_http"
	RuleTLSOff            = "tls_verification_off"
	RuleShellWrapper      = "shell_wrapper"
	RuleShadowedServer    = "shadowed_server"
	RuleWritableByOthers  = "writable_by_others"
	SeverityHigh          = "high"
	SeverityMedium        = "medium"
	SeverityLow           = "low"
	secretDetail          = " holds a literal that looks like a secret"
	maxNamedKey           = 64
	placeholderKeyMention = "a key"
)

// parsed is one config as the findings pass sees it: its summary, the decoded
// document, where its servers are, and the line index of a JSON config.
type parsed struct {
	cfg   Config
	doc   map[string]any
	key   string
	lines *lineIndex
	// read is set when the file's bytes were read (whether or not they parsed).
	read bool
	// writable is set when the file may be written by users other than its owner.
	writable bool
}

// findings returns the risks in configs, read in report order: per file the file's own
// finding, then its servers by name; shadowing needs every file, so it is decided here
// and not per file.
func findings(configs []parsed) []Finding {
	files := map[string][]string{} // server name -> files that configure it, in order
	for _, p := range configs {
		for _, s := range p.cfg.Servers {
			if !slices.Contains(files[s.Name], p.cfg.File) {
				files[s.Name] = append(files[s.Name], p.cfg.File)
			}
		}
	}
	out := []Finding{}
	for _, p := range configs {
		if p.writable {
			out = append(out, Finding{Rule: RuleWritableByOthers, Severity: SeverityHigh, File: p.cfg.File,
				Detail: "config file can be changed by users other than its owner" + writableHow})
		}
		servers, _ := p.doc[p.key].(map[string]any)
		for _, s := range p.cfg.Servers {
			a := serverAudit{file: p.cfg.File, name: s.Name, lines: p.lines}
			if others := slices.DeleteFunc(slices.Clone(files[s.Name]), func(f string) bool { return f == p.cfg.File }); len(others) > 0 {
				a.add(RuleShadowedServer, SeverityMedium, "server name is also configured in "+strings.Join(others, ", ")+"; which one a host runs depends on its scope order")
			}
			if p.lines != nil && p.lines.repeated[s.Name] {
				a.add(RuleShadowedServer, SeverityMedium, "server name is written more than once in this file; only the last entry takes effect")
			}
			if m, ok := servers[s.Name].(map[string]any); ok {
				a.server(m)
			}
			out = append(out, a.out...)
		}
	}
	return out
}

// serverAudit collects the findings of one server.
type serverAudit struct {
	file, name string
	lines      *lineIndex
	out        []Finding
	seen       map[Finding]bool
}

func (a *serverAudit) add(rule, severity, detail string, at ...string) {
	f := Finding{Rule: rule, Severity: severity, Server: a.name, File: a.file, Detail: detail,
		Line: a.lines.line(append([]string{a.name}, at...)...)}
	if a.seen == nil {
		a.seen = map[Finding]bool{}
	}
	if !a.seen[f] {
		a.seen[f] = true
		a.out = append(a.out, f)
	}
}

// word is one word of a server's command line and where it came from: arg is its index
// in args, -1 for the command.
type word struct {
	s   string
	arg int
}

func (w word) where() (mention string, at []string) {
	if w.arg < 0 {
		return "command", []string{"command"}
	}
	return "args[" + strconv.Itoa(w.arg) + "]", []string{"args", strconv.Itoa(w.arg)}
}

// commandLine is the server's command followed by its string arguments; a command with
// spaces and no argument list is split on white space (configs that put a whole command
// line in "command").
func commandLine(m map[string]any) []word {
	cmd, _ := m["command"].(string)
	args, isList := m["args"].([]any)
	var out []word
	if strings.TrimSpace(cmd) == "" {
		return nil
	}
	if len(args) == 0 && strings.ContainsAny(strings.TrimSpace(cmd), " \t") {
		for _, f := range strings.Fields(cmd) {
			out = append(out, word{unquote(f), -1})
		}
	} else {
		out = append(out, word{cmd, -1})
	}
	if isList {
		for i, v := range args {
			s, _ := v.(string)
			out = append(out, word{s, i})
		}
	}
	return out
}

// server runs every per-server rule over one server entry.
func (a *serverAudit) server(m map[string]any) {
	for _, field := range []string{"env", "headers", "http_headers"} {
		env, _ := m[field].(map[string]any)
		for _, k := range sortedKeys(env) {
			v, ok := env[k].(string)
			if !ok {
				continue
			}
			kind := "env"
			if field != "env" {
				kind = "header"
			}
			if secretPair(k, v) {
				a.add(RuleSecretLiteral, SeverityHigh, kind+" "+mentionKey(k)+secretDetail, field, k)
			}
			if field == "env" && tlsOffEnv(k, v) {
				a.add(RuleTLSOff, SeverityHigh, "env "+mentionKey(k)+" switches TLS certificate checks off", field, k)
			}
		}
	}
	if v, ok := m["bearer_token"].(string); ok && !placeholder(v) {
		a.add(RuleSecretLiteral, SeverityHigh, "bearer_token"+secretDetail, "bearer_token")
	}
	for _, field := range []string{"url", "serverUrl", "httpUrl"} {
		if u, ok := m[field].(string); ok {
			a.url(field, u, []string{field})
		}
	}
	words := commandLine(m)
	if len(words) == 0 {
		return
	}
	shell, inner, wrapped := shellWrapper(words)
	if wrapped {
		a.add(RuleShellWrapper, SeverityMedium, "server starts through "+shell+", which parses its command line again", at(words[0])...)
	}
	a.words(words)
	if len(inner) > 0 {
		a.words(inner)
	}
	if filesystemServer(a.name, words) {
		a.roots(words)
	}
}

func at(w word) []string { _, p := w.where(); return p }

// words runs the command-line rules (secrets, TLS flags, URLs, launchers) over words,
// the server's command line or the one a shell wrapper runs.
func (a *serverAudit) words(words []word) {
	for i, w := range words {
		mention, loc := w.where()
		if secretWord(words, i) {
			a.add(RuleSecretLiteral, SeverityHigh, mention+secretDetail, loc...)
		}
		if tlsOffFlag(w.s) {
			a.add(RuleTLSOff, SeverityHigh, mention+" switches TLS certificate checks off", loc...)
		}
		if i > 0 && strings.HasPrefix(strings.ToLower(w.s), "http://") {
			a.url(mention, w.s, loc)
		}
	}
	if launcher, w, ok := unpinnedLauncher(words); ok {
		_, loc := w.where()
		a.add(RuleUnpinnedLauncher, SeverityMedium, launcher+" runs a package without a pinned version (no version, or latest or a range)", loc...)
	}
}

// url checks a URL-valued field or argument: credentials in it and plain http.
func (a *serverAudit) url(mention, raw string, loc []string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return
	}
	if p, ok := u.User.Password(); ok && !placeholder(p) {
		a.add(RuleSecretLiteral, SeverityHigh, mention+" carries a password", loc...)
	}
	q, _ := url.ParseQuery(u.RawQuery)
	for _, k := range sortedKeys(q) {
		for _, v := range q[k] {
			if secretPair(k, v) {
				a.add(RuleSecretLiteral, SeverityHigh, mention+" query parameter "+mentionKey(k)+secretDetail, loc...)
			}
		}
	}
	if strings.EqualFold(u.Scheme, "http") && u.Hostname() != "" && !loopback(u.Hostname()) && !reference(u.Host) {
		a.add(RulePlainHTTP, SeverityMedium, mention+" uses plain http:// to a host that is not loopback", loc...)
	}
}

// roots flags the arguments of a filesystem server that are too broad a root.
func (a *serverAudit) roots(words []word) {
	for _, w := range words[1:] {
		if strings.HasPrefix(w.s, "-") {
			continue
		}
		if sev, what, ok := broadRoot(w.s); ok {
			mention, loc := w.where()
			a.add(RuleBroadRoot, sev, mention+" gives the filesystem server "+what, loc...)
		}
	}
}

// mentionKey names a config key in a detail: keys are names, not values, but a key that
// itself looks like a token, or an overlong one, is not repeated.
func mentionKey(k string) string {
	if len(k) > maxNamedKey || looksLikeToken(k) || strings.ContainsAny(k, "\r\n") {
		return placeholderKeyMention
	}
	return k
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// loopback is a host name or address that stays on the machine.
func loopback(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	// The unspecified address (0.0.0.0, ::) is dialled as the machine itself.
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}
