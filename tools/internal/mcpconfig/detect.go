package mcpconfig

import (
	"strings"
)

// The detectors of the findings pass (docs/tools/mcp_audit.md, "Findings"). Each looks
// at one value and answers yes or no; none returns or keeps any part of the value.
// Plain string code over static tables: nothing is built at start-up.

// tokenPrefixes are well-known credential formats: a value starting with one of them,
// followed by at least min token characters, is a secret whatever its key is called.
var tokenPrefixes = []struct {
	prefix string
	min    int
}{
	{"github_pat_", 20}, {"ghp_", 20}, {"gho_", 20}, {"ghu_", 20}, {"ghs_", 20}, {"ghr_", 20},
	{"glpat-", 16}, {"sk-", 20}, {"xoxb-", 10}, {"xoxp-", 10}, {"xoxa-", 10}, {"xoxr-", 10},
	{"xapp-", 10}, {"AKIA", 16}, {"ASIA", 16}, {"AIza", 30}, {"npm_", 30}, {"hf_", 30},
	{"pypi-", 30}, {"glc_", 20}, {"dop_v1_", 30},
}

// secretNameParts make a key name (env key, header, query parameter, flag) secret-like.
var secretNameParts = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY",
	"APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTHORIZATION", "COOKIE", "CLIENT_KEY"}

// notSecretNameSuffixes name where a secret is, not the secret.
var notSecretNameSuffixes = []string{"_FILE", "_PATH", "_DIR", "_URL", "_URI", "_ENV_VAR", "_VAR"}

// placeholderWords mark a value someone is meant to replace.
var placeholderWords = []string{"your", "replace", "placeholder", "example", "changeme", "change_me",
	"xxxx", "****", "...", "redacted", "dummy", "insert", "todo"}

// looksLikeToken: a known credential prefix (after an optional auth scheme) followed by
// enough token characters.
func looksLikeToken(v string) bool {
	v = stripScheme(strings.TrimSpace(v))
	for _, p := range tokenPrefixes {
		rest, ok := strings.CutPrefix(v, p.prefix)
		if !ok || len(rest) < p.min {
			continue
		}
		upperOnly := p.prefix == "AKIA" || p.prefix == "ASIA"
		good := true
		for i := 0; i < len(rest) && good; i++ {
			c := rest[i]
			switch {
			case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			case upperOnly:
				good = false
			case c >= 'a' && c <= 'z', c == '_', c == '-', c == '.', c == '=':
			default:
				good = false
			}
		}
		if good {
			return true
		}
	}
	return false
}

// stripScheme removes an HTTP auth scheme ("Bearer ", "token ", "Basic ").
func stripScheme(v string) string {
	for _, s := range []string{"bearer ", "token ", "basic "} {
		if len(v) > len(s) && strings.EqualFold(v[:len(s)], s) {
			return strings.TrimSpace(v[len(s):])
		}
	}
	return v
}

// placeholder is a value that is not a literal: empty, a reference to a variable
// (${VAR}, $VAR, $env:VAR, %VAR%, {env:VAR}, {{ … }}) or an obvious stand-in.
func placeholder(v string) bool {
	t := strings.TrimSpace(stripScheme(strings.TrimSpace(v)))
	if t == "" {
		return true
	}
	l := strings.ToLower(t)
	if reference(l) || strings.HasPrefix(l, "<") && strings.HasSuffix(l, ">") {
		return true
	}
	for _, w := range placeholderWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// reference: v names a variable instead of holding a value (${VAR}, $VAR, $env:VAR,
// %VAR%, {env:VAR}, {{ … }}).
func reference(v string) bool {
	l := strings.ToLower(strings.TrimSpace(v))
	if strings.Contains(l, "${") || strings.Contains(l, "$env:") || strings.Contains(l, "{env:") || strings.Contains(l, "{{") {
		return true
	}
	if l != "" && l[0] == '$' && identifier(l[1:]) {
		return true
	}
	if i := strings.IndexByte(l, '%'); i >= 0 {
		if j := strings.IndexByte(l[i+1:], '%'); j > 0 && identifier(l[i+1:i+1+j]) {
			return true
		}
	}
	return false
}

func identifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

// secretName: a key whose name says it holds a secret.
func secretName(k string) bool {
	n := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(strings.TrimLeft(strings.TrimSpace(k), "-")))
	for _, s := range notSecretNameSuffixes {
		if strings.HasSuffix(n, s) {
			return false
		}
	}
	for _, p := range secretNameParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	return n == "PAT" || strings.HasSuffix(n, "_PAT")
}

// secretPair: the value under key k is a literal secret: a known token format, or a
// secret-like name with a literal that is not a placeholder, a path or a URL.
func secretPair(k, v string) bool {
	if placeholder(v) {
		return false
	}
	if looksLikeToken(v) {
		return true
	}
	if !secretName(k) {
		return false
	}
	t := strings.ToLower(strings.TrimSpace(v))
	if t == "true" || t == "false" || looksLikePath(t) || strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") {
		return false
	}
	return true
}

func looksLikePath(l string) bool {
	return strings.HasPrefix(l, "/") || strings.HasPrefix(l, "~/") || strings.HasPrefix(l, "./") ||
		strings.HasPrefix(l, "../") || strings.HasPrefix(l, `.\`) || strings.HasPrefix(l, `\\`) ||
		len(l) >= 3 && l[1] == ':' && (l[2] == '\\' || l[2] == '/')
}

// secretWord: the word at i of a command line is a secret: a token, NAME=value or
// --flag=value with a secret-like name, "Header: value" with a secret-like header, or
// the value after a secret-like --flag.
func secretWord(words []word, i int) bool {
	s := strings.TrimSpace(words[i].s)
	if looksLikeToken(s) {
		return true
	}
	if k, v, ok := strings.Cut(s, "="); ok && k != "" && !strings.ContainsAny(k, " :/") {
		if secretPair(k, unquote(v)) {
			return true
		}
	}
	if k, v, ok := strings.Cut(s, ":"); ok && k != "" && !strings.ContainsAny(k, " /\\") && strings.HasPrefix(v, " ") {
		if secretPair(k, strings.TrimSpace(v)) {
			return true
		}
	}
	if i > 0 {
		prev := strings.TrimSpace(words[i-1].s)
		if strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && secretName(prev) &&
			!strings.HasPrefix(s, "-") && secretPair(prev, s) {
			return true
		}
	}
	return false
}

// tlsOffEnv: an environment variable that switches certificate checks off.
func tlsOffEnv(k, v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	switch strings.ToUpper(strings.TrimSpace(k)) {
	case "NODE_TLS_REJECT_UNAUTHORIZED", "PYTHONHTTPSVERIFY":
		return v == "0" || v == "false"
	case "GIT_SSL_NO_VERIFY", "CURL_INSECURE":
		return v == "1" || v == "true" || v == "yes"
	case "NPM_CONFIG_STRICT_SSL", "YARN_STRICT_SSL", "GIT_SSL_VERIFY":
		return v == "0" || v == "false"
	case "NODE_OPTIONS":
		return strings.Contains(v, "--tls-reject-unauthorized=false")
	}
	return false
}

// tlsOffFlags are command-line flags that switch certificate checks off.
var tlsOffFlags = []string{"--insecure", "--ignore-certificate-errors", "--no-verify-ssl", "--tls-skip-verify",
	"--insecure-skip-tls-verify", "--skip-tls-verify", "--disable-ssl-verification", "--ssl-no-verify",
	"--no-check-certificate", "--strict-ssl=false", "--allow-insecure"}

func tlsOffFlag(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	for _, f := range tlsOffFlags {
		if l == f || strings.HasPrefix(l, f+"=") && !strings.HasSuffix(l, "=false") {
			return true
		}
	}
	return false
}

// program is the lower-case base name of a command without its Windows extension.
func program(s string) string {
	s = strings.ToLower(unquote(strings.TrimSpace(s)))
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	for _, ext := range []string{".exe", ".cmd", ".bat", ".ps1", ".com"} {
		if t, ok := strings.CutSuffix(s, ext); ok {
			return t
		}
	}
	return s
}

// shellWrapper: the command line runs through a shell given a command string (cmd /c,
// powershell -Command, sh -c, …). shell is the canonical spelling for the detail (a
// fixed word, never the config's text); inner is what the shell runs, split on white
// space when it is one string.
func shellWrapper(words []word) (shell string, inner []word, ok bool) {
	if len(words) == 0 {
		return "", nil, false
	}
	rest := words[1:]
	switch p := program(words[0].s); p {
	case "cmd":
		for i, w := range rest {
			l := strings.ToLower(strings.TrimSpace(w.s))
			if l == "/c" || l == "/k" || l == "/r" {
				return "cmd " + l, splitInner(rest[i+1:]), true
			}
			if !strings.HasPrefix(l, "/") {
				return "", nil, false
			}
		}
	case "powershell", "pwsh":
		for i := 0; i < len(rest); i++ {
			l := strings.ToLower(strings.TrimSpace(rest[i].s))
			if !strings.HasPrefix(l, "-") {
				// powershell.exe takes a bare first argument as a command, pwsh as a file.
				if p == "powershell" {
					return "powershell -Command", splitInner(rest[i:]), true
				}
				return "", nil, false
			}
			name := strings.TrimLeft(l, "-")
			switch {
			case name == "":
			case strings.HasPrefix("command", name) && name != "co" || name == "c":
				return p + " -Command", splitInner(rest[i+1:]), true
			case strings.HasPrefix("encodedcommand", name) || name == "ec":
				return p + " -EncodedCommand", nil, true
			case strings.HasPrefix("file", name) && len(name) >= 1 && name[0] == 'f':
				return "", nil, false
			case takesValue(name):
				i++
			}
		}
	case "bash", "sh", "zsh", "dash", "ksh", "ash", "fish":
		for i, w := range rest {
			l := strings.TrimSpace(w.s)
			if !strings.HasPrefix(l, "-") || l == "-" || l == "--" {
				return "", nil, false
			}
			if !strings.HasPrefix(l, "--") && strings.Contains(l[1:], "c") {
				return p + " -c", splitInner(rest[i+1 : min(i+2, len(rest))]), true
			}
			if l == "--command" {
				return p + " -c", splitInner(rest[i+1 : min(i+2, len(rest))]), true
			}
		}
	}
	return "", nil, false
}

// takesValue: PowerShell parameters (any unambiguous prefix) that consume the next word.
func takesValue(name string) bool {
	if len(name) < 2 {
		return false
	}
	for _, p := range []string{"executionpolicy", "windowstyle", "inputformat", "outputformat",
		"configurationname", "workingdirectory", "version", "psconsolefile", "settingsfile", "custompipename"} {
		if strings.HasPrefix(p, name) {
			return true
		}
	}
	return name == "ep" || name == "wd"
}

// splitInner is the command a shell runs: one word is split on white space (keeping its
// source position), several are taken as they are.
func splitInner(ws []word) []word {
	if len(ws) != 1 {
		return ws
	}
	var out []word
	for _, f := range strings.Fields(unquote(strings.TrimSpace(ws[0].s))) {
		out = append(out, word{unquote(f), ws[0].arg})
	}
	return out
}

// launcherFlags are the options of each launcher that take the next word as a value
// (other options are taken to stand alone).
var (
	npxValueFlags  = []string{"-p", "--package", "--registry", "--cache", "--userconfig", "-c", "--call", "-w", "--workspace"}
	uvxValueFlags  = []string{"--from", "--with", "--with-editable", "--with-requirements", "--python", "-p", "--index", "--index-url", "--extra-index-url", "--default-index", "-i", "--find-links", "-f", "--constraint", "-c", "--override", "--directory", "--cache-dir", "--config-file", "--python-preference", "--index-strategy", "--keyring-provider"}
	pipxValueFlags = []string{"--spec", "--python", "--pip-args", "--index-url", "-i", "--backend"}
	dnxValueFlags  = []string{"--version", "--source", "--add-source", "--configfile", "--framework", "-a", "--arch", "--verbosity", "-v"}
)

// unpinnedLauncher: the command line runs a registry package through a launcher (npx,
// bunx, pnpx, npm exec, pnpm/yarn dlx, uvx, uv tool run, pipx run, dnx, dotnet tool
// exec) without a fixed version. It returns the launcher's canonical name and the word
// naming the package.
func unpinnedLauncher(words []word) (string, word, bool) {
	if len(words) == 0 {
		return "", word{}, false
	}
	p, rest := program(words[0].s), words[1:]
	sub := func(names ...string) bool {
		if len(rest) < len(names) {
			return false
		}
		for i, n := range names {
			if strings.ToLower(strings.TrimSpace(rest[i].s)) != n {
				return false
			}
		}
		rest = rest[len(names):]
		return true
	}
	switch {
	case p == "npx" || p == "bunx" || p == "pnpx",
		p == "npm" && (sub("exec") || sub("x")),
		(p == "pnpm" || p == "yarn") && sub("dlx"):
		name := p
		if p == "npm" || p == "pnpm" || p == "yarn" {
			name = map[string]string{"npm": "npm exec", "pnpm": "pnpm dlx", "yarn": "yarn dlx"}[p]
		}
		spec, ok := packageSpec(rest, npxValueFlags, []string{"-p", "--package"})
		return name, spec, ok && !npmPinned(spec.s)
	case p == "uvx", p == "uv" && sub("tool", "run"):
		name := "uvx"
		if p == "uv" {
			name = "uv tool run"
		}
		spec, ok := packageSpec(rest, uvxValueFlags, []string{"--from"})
		return name, spec, ok && !pyPinned(spec.s, true)
	case p == "pipx" && sub("run"):
		spec, ok := packageSpec(rest, pipxValueFlags, []string{"--spec"})
		return "pipx run", spec, ok && !pyPinned(spec.s, false)
	case p == "dnx", p == "dotnet" && (sub("tool", "exec") || sub("tool", "execute")):
		name := "dnx"
		if p == "dotnet" {
			name = "dotnet tool exec"
		}
		for i, w := range rest {
			if l := strings.ToLower(w.s); l == "--version" && i+1 < len(rest) && strings.TrimSpace(rest[i+1].s) != "" ||
				strings.HasPrefix(l, "--version=") && len(l) > len("--version=") {
				return "", word{}, false
			}
		}
		spec, ok := packageSpec(rest, dnxValueFlags, nil)
		return name, spec, ok && !atPinned(spec.s)
	}
	return "", word{}, false
}

// packageSpec is the word naming the package: the value of a spec option (-p, --from,
// --spec) when given, else the first word that is not an option or an option's value.
// ok is false when there is none or it is not a registry package (a path, a URL, a git
// or file reference, or a variable reference).
func packageSpec(rest []word, valueFlags, specFlags []string) (word, bool) {
	var spec word
	found := false
	for i := 0; i < len(rest) && !found; i++ {
		s := strings.TrimSpace(rest[i].s)
		l := strings.ToLower(s)
		switch {
		case l == "--":
			continue
		case strings.HasPrefix(l, "-"):
			name, val, hasVal := strings.Cut(s, "=")
			name = strings.ToLower(name)
			if slicesContains(specFlags, name) {
				if hasVal {
					spec, found = word{val, rest[i].arg}, true
				} else if i+1 < len(rest) {
					spec, found = rest[i+1], true
				}
				break
			}
			if !hasVal && slicesContains(valueFlags, name) {
				i++
			}
		default:
			spec, found = rest[i], true
		}
	}
	if !found {
		return word{}, false
	}
	l := strings.ToLower(strings.TrimSpace(unquote(spec.s)))
	if l == "" || looksLikePath(l) || strings.HasPrefix(l, ".") || strings.Contains(l, "://") ||
		strings.HasPrefix(l, "git+") || strings.HasPrefix(l, "file:") || strings.HasPrefix(l, "github:") ||
		strings.Contains(l, `\`) || reference(l) || strings.HasSuffix(l, ".js") || strings.HasSuffix(l, ".tgz") ||
		strings.HasSuffix(l, ".whl") || strings.HasSuffix(l, ".py") {
		return word{}, false
	}
	return spec, true
}

func slicesContains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// floating is a version that is not one release: empty, a dist-tag or a range.
func floating(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" || v == "latest" || v == "next" || v == "*" || v == "x" {
		return true
	}
	return strings.ContainsAny(v[:1], "^~><") || strings.ContainsAny(v, "*| ") || strings.HasSuffix(v, ".x")
}

// npmPinned: name@version (@scope/name@version) with a fixed version.
func npmPinned(spec string) bool {
	s := unquote(strings.TrimSpace(spec))
	from := 0
	if strings.HasPrefix(s, "@") {
		from = 1
	}
	i := strings.IndexByte(s[from:], '@')
	if i < 0 {
		return false
	}
	return !floating(s[from+i+1:])
}

// atPinned: name@version with a fixed version (dnx).
func atPinned(spec string) bool {
	_, v, ok := strings.Cut(unquote(strings.TrimSpace(spec)), "@")
	return ok && !floating(v)
}

// pyPinned: name==version (uvx and uv tool run also accept name@version).
func pyPinned(spec string, at bool) bool {
	s := unquote(strings.TrimSpace(spec))
	if _, v, ok := strings.Cut(s, "=="); ok {
		return !floating(strings.TrimPrefix(v, "="))
	}
	if at {
		return atPinned(s)
	}
	return false
}

// filesystemServer: the server is a filesystem server (a package, image or server name
// mentioning "filesystem"), whose plain arguments are the folders it may reach.
func filesystemServer(name string, words []word) bool {
	if strings.Contains(strings.ToLower(name), "filesystem") {
		return true
	}
	for _, w := range words {
		if strings.Contains(strings.ToLower(w.s), "filesystem") {
			return true
		}
	}
	return false
}

// broadRoot: a folder argument that gives a server far more than a project: a drive or
// file system root, a system folder, the folder of all homes, a home folder or a
// credential folder in it. what is a fixed description for the detail.
func broadRoot(arg string) (severity, what string, ok bool) {
	l := strings.ToLower(strings.ReplaceAll(unquote(strings.TrimSpace(arg)), `\`, "/"))
	if l == "" {
		return "", "", false
	}
	l = strings.TrimPrefix(l, "//?/")
	if strings.Trim(l, "/") == "" {
		// "/", or "\" on Windows: the root of the current drive.
		return SeverityHigh, "a file system root", true
	}
	for strings.HasSuffix(l, "/") {
		l = strings.TrimSuffix(l, "/")
	}
	switch {
	case len(l) == 2 && l[1] == ':' && l[0] >= 'a' && l[0] <= 'z':
		return SeverityHigh, "a drive root", true
	}
	if rest, ok := homeRest(l); ok {
		if rest == "" {
			return SeverityMedium, "a whole home folder", true
		}
		first, _, _ := strings.Cut(rest, "/")
		switch first {
		case ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config", "appdata":
			return SeverityHigh, "a credential or settings folder in a home folder", true
		}
		return "", "", false
	}
	drive := ""
	if len(l) >= 3 && l[1] == ':' && l[2] == '/' {
		drive, l = l[:2], l[2:]
	}
	if l == "/home" || l == "/users" {
		return SeverityHigh, "the folder of every user's home", true
	}
	under := []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/sys", "/proc", "/dev", "/root"}
	exact := []string{"/var", "/opt", "/library", "/system", "/private"}
	if drive != "" {
		under = []string{"/windows", "/program files", "/program files (x86)", "/programdata"}
		exact = nil
	}
	for _, u := range under {
		if l == u || strings.HasPrefix(l, u+"/") {
			return SeverityHigh, "a system folder", true
		}
	}
	if slicesContains(exact, l) {
		return SeverityHigh, "a system folder", true
	}
	for _, v := range []string{"%windir%", "%systemroot%", "%programfiles%", "%programdata%", "$env:windir", "$env:systemroot", "${env:windir}"} {
		if l == v || strings.HasPrefix(l, v+"/") {
			return SeverityHigh, "a system folder", true
		}
	}
	return "", "", false
}

// homeRest: l (lower case, forward slashes, no trailing slash) is a home folder or lies
// in one; rest is the part below it.
func homeRest(l string) (rest string, ok bool) {
	for _, h := range []string{"~", "$home", "${home}", "%userprofile%", "$env:userprofile", "${env:userprofile}",
		"${userprofile}", "%homedrive%%homepath%"} {
		if l == h {
			return "", true
		}
		if r, ok := strings.CutPrefix(l, h+"/"); ok {
			return r, true
		}
	}
	p := l
	if len(p) >= 3 && p[1] == ':' && p[2] == '/' {
		p = p[2:]
		if r, ok := strings.CutPrefix(p, "/users/"); ok {
			_, rest, _ := strings.Cut(r, "/")
			return rest, r != ""
		}
		return "", false
	}
	for _, base := range []string{"/home/", "/users/"} {
		if r, ok := strings.CutPrefix(p, base); ok && r != "" {
			_, rest, _ := strings.Cut(r, "/")
			return rest, true
		}
	}
	if p == "/root" {
		return "", true
	}
	return "", false
}
