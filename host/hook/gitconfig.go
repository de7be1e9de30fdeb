package hook

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
)

// The repository check of docs/hooks.md, "Read-only git and the repository's
// configuration": git status, log, diff and show are read-only forms of the shell
// classifier, which reads nothing but the command line. A repository's own
// configuration can still make them start a program (core.fsmonitor, diff.external,
// a textconv or filter driver, gpg.program, a pager). The hook reads what git would
// read for the event's cwd, within fixed bounds, and raises such a call to
// approval-required. Global and system configuration are the user's own and are not
// read.

// Bounds of the repository check: every read is one open file, at most this many
// bytes (a repository's config is a few hundred bytes).
const (
	maxGitConfigBytes  = 64 << 10 // a config file; more is "too large to check"
	maxGitPointerBytes = 4 << 10  // a .git file or a commondir file
	maxGitParents      = 128      // directories walked up from cwd
	maxGitModules      = 32       // submodule git directories checked
	maxGitModulesScan  = 1024     // directory entries looked at under modules/
)

// mayRunGit reports whether a command line the shell classifier found read-only or
// reversible may start git. It errs towards yes: a command that names git in any case
// once the quoting and escape characters of bash, PowerShell and cmd are taken out
// (g\it, g"i"t, g^it, g`it), or that holds an expansion or a wildcard, which could
// spell git without its letters ($'\x67it', %G%it, {g,}it, gi?).
func mayRunGit(cmd string) bool {
	if strings.ContainsAny(cmd, "$%{}[]*?") {
		return true
	}
	if !strings.ContainsAny(cmd, "\\'\"`^") {
		return containsFold(cmd, "git")
	}
	var b strings.Builder
	b.Grow(len(cmd))
	for i := range len(cmd) {
		if strings.IndexByte("\\'\"`^", cmd[i]) < 0 {
			b.WriteByte(cmd[i])
		}
	}
	return containsFold(b.String(), "git")
}

// containsFold is strings.Contains after ASCII lower-casing of s (sub is lower-case).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// repoProgram is the reason a git command run in cwd would start a program the
// repository names, or "" when the repository names none (or there is no
// repository). Anything it cannot establish within its bounds (no usable cwd, an
// unreadable or oversized file, an include, a config it cannot parse) is a reason
// too: the call then asks.
func repoProgram(cwd any) string {
	dir, _ := cwd.(string)
	dir = strings.TrimSpace(dir)
	if dir == "" || !filepath.IsAbs(dir) {
		return "the hook event carries no absolute cwd, so the repository's git configuration cannot be checked"
	}
	// git works from the physical directory, so walk up from the final path.
	final, err := contain.ResolveDir(dir)
	if err != nil {
		return "the event's cwd is not a directory the hook can open, so the repository's git configuration cannot be checked"
	}
	gitDir, worktree, why := findGitDir(final)
	if why != "" || gitDir == "" {
		return why
	}
	if why := checkGitDir(gitDir, ""); why != "" {
		return why
	}
	if worktree == "" {
		return ""
	}
	return checkTreeSubmodules(worktree)
}

// findGitDir finds the git directory git would use for dir: at each level upwards a
// .git directory, a .git file naming one ("gitdir: …"), or the directory itself when
// it is a git directory (a bare repository, or a directory inside .git). worktree is
// the directory holding .git ("" for a git directory found itself). "" with no reason
// when there is none.
func findGitDir(dir string) (gitDir, worktree, why string) {
	for range maxGitParents {
		dotGit := filepath.Join(dir, ".git")
		gd, why := dotGitDir(dotGit)
		if why != "" {
			return "", "", why
		}
		if gd != "" {
			return gd, dir, ""
		}
		if isGitDir(dir) {
			return dir, "", ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", ""
		}
		dir = parent
	}
	return "", "", "the event's cwd is nested deeper than the hook looks for a repository"
}

// dotGitDir is the git directory a .git entry stands for: itself when a directory,
// the one it names when a file ("gitdir: …", relative to its directory); "" when
// there is none.
func dotGitDir(dotGit string) (string, string) {
	fi, err := os.Stat(dotGit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", ""
	case err != nil:
		return "", "the repository's .git could not be read, so its git configuration cannot be checked"
	case fi.IsDir():
		return dotGit, ""
	}
	target, found, why := readPointer(dotGit, "gitdir:")
	if !found && why == "" {
		why = "the repository's .git could not be read" // gone since the look above
	}
	if why != "" {
		return "", why
	}
	return resolveFrom(filepath.Dir(dotGit), target), ""
}

// isGitDir is git's own test of a git directory: HEAD, and objects/ and refs/ or
// (a linked worktree's git directory) a commondir file.
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	if fi, err := os.Stat(filepath.Join(dir, "commondir")); err == nil && !fi.IsDir() {
		return true
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// resolveFrom is p, made absolute against base when relative.
func resolveFrom(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// readPointer reads a small file holding one path (a .git file with prefix
// "gitdir:", a commondir file with none); found is false when there is no such file.
func readPointer(path, prefix string) (target string, found bool, why string) {
	data, found, why := readBounded(path, maxGitPointerBytes)
	if !found || why != "" {
		return "", found, why
	}
	s := strings.TrimSpace(string(data))
	rest, ok := strings.CutPrefix(s, prefix)
	rest = strings.TrimSpace(rest)
	if !ok || rest == "" || strings.ContainsAny(rest, "\r\n\x00") {
		return "", true, fmt.Sprintf("the repository's %s does not name a git directory the hook understands", filepath.Base(path))
	}
	return rest, true, ""
}

// readBounded reads one file through one handle, at most limit bytes. found is false
// when the file does not exist (the open says so: no separate look first, which would
// touch the file twice and could see another file than the one read).
func readBounded(path string, limit int64) (data []byte, found bool, why string) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, ""
	}
	if err != nil {
		return nil, true, fmt.Sprintf("the repository's %s could not be read", filepath.Base(path))
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, true, fmt.Sprintf("the repository's %s could not be read", filepath.Base(path))
	}
	if int64(len(data)) > limit {
		return nil, true, fmt.Sprintf("the repository's %s is larger than %d KiB, more than the hook checks", filepath.Base(path), limit>>10)
	}
	return data, true, ""
}

// checkGitDir checks one git directory: its common directory's config, its own
// config.worktree, the post-index-change hook (git status and git diff refresh and
// write the index, which runs it), and the submodules' git directories under
// modules/ (git status recurses into them). whose prefixes the reason.
func checkGitDir(gitDir, whose string) string {
	common := gitDir
	target, found, why := readPointer(filepath.Join(gitDir, "commondir"), "")
	if why != "" {
		return whose + why
	}
	if found {
		common = resolveFrom(gitDir, target)
	}
	for _, cfg := range []string{filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree")} {
		if why := checkConfigFile(cfg); why != "" {
			return whose + why
		}
	}
	if _, err := os.Lstat(filepath.Join(common, "hooks", "post-index-change")); err == nil {
		return whose + "the repository has a post-index-change hook, which git runs when a read-only command refreshes the index"
	}
	if whose != "" {
		return "" // nested submodules are walked from the top (checkModules)
	}
	return checkModules(filepath.Join(common, "modules"))
}

// checkConfigFile checks one config file; a missing one names nothing.
func checkConfigFile(path string) string {
	data, found, why := readBounded(path, maxGitConfigBytes)
	if !found || why != "" {
		return why
	}
	return configProgram(data)
}

// checkModules checks every submodule git directory under modules (a directory with
// a config file; submodule names may hold slashes, so the walk goes down), within
// maxGitModules directories and maxGitModulesScan entries.
func checkModules(modules string) string {
	const whose = "a submodule's configuration: "
	seen, found := 0, 0
	var why string
	err := filepath.WalkDir(modules, func(p string, d fs.DirEntry, err error) error {
		if p == modules && errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipAll // no submodules: the walk's own look at modules says so
		}
		if err != nil {
			return err
		}
		if seen++; seen > maxGitModulesScan {
			return errTooMany
		}
		if !d.IsDir() || p == modules {
			return nil
		}
		switch d.Name() {
		case "objects", "refs", "logs", "info", "hooks", "lfs", "worktrees":
			return filepath.SkipDir // a git directory's own parts
		}
		if _, err := os.Lstat(filepath.Join(p, "config")); err != nil {
			return nil // an intermediate directory of a name with slashes
		}
		if found++; found > maxGitModules {
			return errTooMany
		}
		if why = checkGitDir(p, whose); why != "" {
			return filepath.SkipAll
		}
		return nil
	})
	switch {
	case why != "":
		return why
	case errors.Is(err, errTooMany):
		return "the repository has more submodules than the hook checks"
	case err != nil:
		return "the repository's submodules could not be read"
	}
	return ""
}

var errTooMany = errors.New("too many entries")

// checkTreeSubmodules checks the submodules .gitmodules lists whose git directory
// sits in their own working tree (an older layout, or one made by hand): git status
// recurses into them as into those under modules/. A path git itself refuses (absolute,
// or climbing with ..) is skipped as git skips it.
func checkTreeSubmodules(worktree string) string {
	data, found, why := readBounded(filepath.Join(worktree, ".gitmodules"), maxGitConfigBytes)
	if !found || why != "" {
		return why
	}
	var paths []string
	err := parseGitConfig(data, func(section, _, key, value string, hasValue bool) bool {
		if section == "submodule" && key == "path" && hasValue {
			paths = append(paths, value)
		}
		return len(paths) <= maxGitModules
	})
	switch {
	case err != nil:
		return "the repository's .gitmodules could not be parsed (" + err.Error() + ")"
	case len(paths) > maxGitModules:
		return "the repository has more submodules than the hook checks"
	}
	for _, p := range paths {
		p = filepath.FromSlash(p)
		if p == "" || filepath.IsAbs(p) || filepath.VolumeName(p) != "" || hasDotDot(p) {
			continue
		}
		gitDir, why := dotGitDir(filepath.Join(worktree, p, ".git"))
		if why == "" && gitDir != "" {
			why = checkGitDir(gitDir, "")
		}
		if why != "" {
			return "a submodule's configuration: " + why
		}
	}
	return ""
}

// hasDotDot reports whether the relative path p has a ".." element.
func hasDotDot(p string) bool {
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if e == ".." {
			return true
		}
	}
	return false
}

// configProgram is the reason a git config file makes a read-only git command start a
// program, or "". The keys (docs/hooks.md): core.fsmonitor other than a boolean,
// core.pager other than cat, pager.<command> other than a boolean, core.hooksPath,
// diff.external, diff.<driver>.command and .textconv, filter.<driver>.clean, .smudge
// and .process, gpg.program and gpg.<format>.program (git log --show-signature or a
// %G format runs it; log.showSignature makes every log do so), include.path and
// includeIf.<condition>.path (another file, which the hook does not follow); and in a
// partial clone, where log, show and diff may fetch missing objects, the programs a
// fetch starts: core.sshCommand, core.gitProxy, core.askPass, credential helpers,
// remote.<name>.uploadpack and .vcs. Names are matched without regard to case and to
// the subsection, which can only find more.
func configProgram(data []byte) string {
	var named, fetchNamed string
	partial := false
	err := parseGitConfig(data, func(section, sub, key, value string, hasValue bool) bool {
		name := configName(section, sub != "", key)
		switch section + "." + key {
		case "core.fsmonitor":
			if _, ok := gitBool(value, hasValue); !ok {
				named = name
			}
		case "core.pager":
			if v := strings.TrimSpace(value); hasValue && v != "" && v != "cat" {
				named = name
			}
		case "core.hookspath", "diff.external", "diff.command", "diff.textconv",
			"filter.clean", "filter.smudge", "filter.process",
			"gpg.program":
			named = name
		case "include.path", "includeif.path":
			named = name
		case "core.sshcommand", "core.gitproxy", "core.askpass", "credential.helper",
			"remote.uploadpack", "remote.vcs":
			if fetchNamed == "" {
				fetchNamed = name
			}
		case "extensions.partialclone":
			partial = true
		case "remote.promisor":
			if b, ok := gitBool(value, hasValue); b || !ok {
				partial = true
			}
		}
		if section == "pager" {
			if _, ok := gitBool(value, hasValue); !ok {
				named = name
			}
		}
		return named == ""
	})
	switch {
	case err != nil:
		return "the repository's git configuration could not be parsed (" + err.Error() + ")"
	case strings.HasPrefix(named, "include"):
		return "the repository's git configuration includes another file (" + named + "), which the hook does not follow"
	case named != "":
		return "the repository's git configuration sets " + named + ", which names a program git would run"
	case partial && fetchNamed != "":
		return "the repository is a partial clone whose git configuration sets " + fetchNamed + ", a program git would run to fetch missing objects"
	}
	return ""
}

// configName is the key as the reasons show it: the subsection, which the
// repository chooses, is never echoed.
func configName(section string, hasSub bool, key string) string {
	if !hasSub {
		return section + "." + key
	}
	placeholder := "<name>"
	switch section {
	case "diff", "filter":
		placeholder = "<driver>"
	case "gpg":
		placeholder = "<format>"
	case "includeif":
		placeholder = "<condition>"
	}
	return section + "." + placeholder + "." + key
}

// gitBool is git's reading of a boolean value (git_parse_maybe_bool): a key with no
// "=" is true; true/yes/on and false/no/off/"" in any case; an integer is true unless
// 0. ok is false for anything else (a value that is a program's name).
func gitBool(value string, hasValue bool) (b, ok bool) {
	if !hasValue {
		return true, true
	}
	switch strings.ToLower(value) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off", "":
		return false, true
	}
	// git's integers may carry one k, m or g unit suffix.
	v := value
	if n := len(v); n > 1 && strings.IndexByte("kmgKMG", v[n-1]) >= 0 {
		v = v[:n-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return false, false
	}
	return n != 0, true
}
