package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// A repository's config as git init and a clone write it: nothing in it names a
// program.
const plainGitConfig = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n" +
	"[remote \"origin\"]\n\turl = https://example.invalid/x/y.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
	"[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"

// gitRepo lays out a git directory at dir (HEAD, objects/, refs/) with config.
func gitRepo(t testing.TB, dir, config string) {
	t.Helper()
	writeFiles(t, dir, map[string]string{"HEAD": "ref: refs/heads/main\n", "objects/": "", "refs/heads/": "", "config": config})
}

// writeFiles creates files under root: a name ending in / is a directory.
func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	testkit.Tree(t, root, files, 0o644)
}

// Issue 22 §2: git status, log, diff and show are read-only forms, but a repository's
// own configuration can make them run a program. The hooks read the configuration git
// reads for the event's cwd and ask for such a call (Codex's PreToolUse only denies:
// it records the class). Each row lays out a repository in a temporary directory.
func TestGitReadOnlyFormsCheckTheRepositoryConfig(t *testing.T) {
	type row struct {
		name   string
		setup  func(t *testing.T, root string) // lays out the repository under root
		cwd    string                          // below root
		cmd    string
		ask    bool
		reason string // a part of the ask reason
	}
	config := func(extra string) func(*testing.T, string) {
		return func(t *testing.T, root string) { gitRepo(t, filepath.Join(root, ".git"), plainGitConfig+extra) }
	}
	rows := []row{
		{name: "plain repository", setup: config(""), cmd: "git status --short"},
		{name: "no repository", setup: func(*testing.T, string) {}, cmd: "git status"},
		{name: "fsmonitor program", setup: config("[core]\n\tfsmonitor = .git/fsmon.sh\n"), cmd: "git status", ask: true, reason: "core.fsmonitor"},
		{name: "fsmonitor from a subdirectory", setup: config("[core]\n\tfsmonitor = /tmp/x\n"), cwd: "src/deep", cmd: "git status", ask: true, reason: "core.fsmonitor"},
		{name: "fsmonitor true is git's own daemon", setup: config("[core]\n\tfsmonitor = true\n"), cmd: "git status"},
		{name: "fsmonitor false", setup: config("[core]\n\tfsmonitor = false\n"), cmd: "git status"},
		{name: "fsmonitor quoted true", setup: config("[core]\n\tfsmonitor = \"true\" ; daemon\n"), cmd: "git status"},
		{name: "fsmonitor with a vertical tab is a path to git", setup: config("[core]\n\tfsmonitor = true\v\n"), cmd: "git status", ask: true, reason: "core.fsmonitor"},
		{name: "fsmonitor on the header's line, any case", setup: config("[CORE] FSMonitor=x\n"), cmd: "git status", ask: true, reason: "core.fsmonitor"},
		{name: "diff.external", setup: config("[diff]\n\texternal = ./x.sh\n"), cmd: "git diff", ask: true, reason: "diff.external"},
		{name: "textconv driver", setup: config("[diff \"pdf\"]\n\ttextconv = ./x.sh\n"), cmd: "git log -p", ask: true, reason: "diff.<driver>.textconv"},
		{name: "old-style textconv header", setup: config("[diff.pdf]\n\ttextconv = ./x.sh\n"), cmd: "git show", ask: true, reason: "textconv"},
		{name: "diff driver command", setup: config("[diff \"x\"]\n\tcommand = ./x.sh\n"), cmd: "git diff", ask: true, reason: "diff.<driver>.command"},
		{name: "filter process", setup: config("[filter \"lfs\"]\n\tprocess = git-lfs filter-process\n\trequired = true\n"), cmd: "git status", ask: true, reason: "filter.<driver>.process"},
		{name: "filter clean", setup: config("[filter \"x\"]\n\tclean = ./c\n"), cmd: "git diff", ask: true, reason: "filter.<driver>.clean"},
		{name: "gpg.program", setup: config("[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ./x.sh\n"), cmd: "git log", ask: true, reason: "gpg.program"},
		{name: "gpg.ssh.program", setup: config("[gpg \"ssh\"]\n\tprogram = ./x.sh\n"), cmd: "git log --format=%GK", ask: true, reason: "gpg.<format>.program"},
		{name: "core.pager", setup: config("[core]\n\tpager = ./x.sh\n"), cmd: "git log", ask: true, reason: "core.pager"},
		{name: "core.pager cat", setup: config("[core]\n\tpager = cat\n"), cmd: "git log"},
		{name: "pager.log program", setup: config("[pager]\n\tlog = ./x.sh\n"), cmd: "git log", ask: true, reason: "pager.log"},
		{name: "pager.log false", setup: config("[pager]\n\tlog = false\n"), cmd: "git log"},
		{name: "hooksPath", setup: config("[core]\n\thooksPath = hooks\n"), cmd: "git status", ask: true, reason: "core.hookspath"},
		{name: "include", setup: config("[include]\n\tpath = other.cfg\n"), cmd: "git status", ask: true, reason: "include.path"},
		{name: "includeIf", setup: config("[includeIf \"gitdir:/\"]\n\tpath = other.cfg\n"), cmd: "git diff", ask: true, reason: "does not follow"},
		{name: "unparsable config", setup: config("[core\n"), cmd: "git status", ask: true, reason: "could not be parsed"},
		{name: "unknown escape", setup: config("[core]\n\teditor = \"a\\qb\"\n"), cmd: "git status", ask: true, reason: "could not be parsed"},
		{name: "oversized config", setup: config("# " + strings.Repeat("x", 64<<10) + "\n"), cmd: "git status", ask: true, reason: "larger than 64 KiB"},
		{name: "config is a directory", setup: func(t *testing.T, root string) {
			writeFiles(t, filepath.Join(root, ".git"), map[string]string{"HEAD": "ref: refs/heads/main\n", "objects/": "", "refs/": "", "config/": ""})
		}, cmd: "git status", ask: true, reason: "could not be read"},
		{name: "post-index-change hook", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			writeFiles(t, filepath.Join(root, ".git"), map[string]string{"hooks/post-index-change": "#!/bin/sh\n"})
		}, cmd: "git status", ask: true, reason: "post-index-change"},
		{name: "sample hooks run nothing", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			writeFiles(t, filepath.Join(root, ".git"), map[string]string{"hooks/post-index-change.sample": "#!/bin/sh\n"})
		}, cmd: "git status"},
		{name: "linked worktree reads the common config", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, "main", ".git"), plainGitConfig+"[core]\n\tfsmonitor = ./x\n")
			writeFiles(t, root, map[string]string{
				"main/.git/worktrees/w/HEAD":      "ref: refs/heads/w\n",
				"main/.git/worktrees/w/commondir": "../..\n",
				"w/.git":                          "gitdir: ../main/.git/worktrees/w\n",
			})
		}, cwd: "w", cmd: "git status", ask: true, reason: "core.fsmonitor"},
		{name: "inside a linked worktree's git directory", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			writeFiles(t, root, map[string]string{
				".git/worktrees/w/HEAD":            "ref: refs/heads/w\n",
				".git/worktrees/w/commondir":       "../..\n",
				".git/worktrees/w/config.worktree": "[core]\n\tfsmonitor = x\n",
				".git/worktrees/w/logs/":           "",
			})
		}, cwd: ".git/worktrees/w/logs", cmd: "git status", ask: true, reason: "core.fsmonitor"},
		{name: "worktree config", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig+"[extensions]\n\tworktreeConfig = true\n")
			writeFiles(t, root, map[string]string{".git/config.worktree": "[diff]\n\texternal = x\n"})
		}, cmd: "git diff", ask: true, reason: "diff.external"},
		{name: "gitdir file with an absolute path", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, "store"), plainGitConfig+"[diff]\n\texternal = x\n")
			writeFiles(t, root, map[string]string{"work/.git": "gitdir: " + filepath.Join(root, "store") + "\n"})
		}, cwd: "work", cmd: "git diff", ask: true, reason: "diff.external"},
		{name: "gitdir file naming nothing", setup: func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{".git": "nonsense\n"})
		}, cmd: "git status", ask: true, reason: ".git"},
		{name: "bare repository", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, "r.git"), "[core]\n\tbare = true\n\tfsmonitor = x\n")
		}, cwd: "r.git", cmd: "git log", ask: true, reason: "core.fsmonitor"},
		{name: "inside the git directory", setup: config("[core]\n\tfsmonitor = x\n"), cwd: ".git/refs", cmd: "git log", ask: true, reason: "core.fsmonitor"},
		{name: "submodule config", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			gitRepo(t, filepath.Join(root, ".git", "modules", "libs", "a"), plainGitConfig+"[core]\n\tfsmonitor = x\n")
		}, cmd: "git status", ask: true, reason: "submodule"},
		{name: "plain submodule", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			gitRepo(t, filepath.Join(root, ".git", "modules", "a"), plainGitConfig)
		}, cmd: "git status"},
		{name: "submodule with its git directory in its tree", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			writeFiles(t, root, map[string]string{".gitmodules": "[submodule \"vendor/a\"]\n\tpath = vendor/a\n\turl = https://example.invalid/a\n"})
			gitRepo(t, filepath.Join(root, "vendor", "a", ".git"), plainGitConfig+"[diff]\n\texternal = x\n")
		}, cmd: "git diff", ask: true, reason: "submodule"},
		{name: "submodule path climbing out is skipped as git skips it", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, "r", ".git"), plainGitConfig)
			writeFiles(t, root, map[string]string{"r/.gitmodules": "[submodule \"x\"]\n\tpath = ../o\n"})
			gitRepo(t, filepath.Join(root, "o", ".git"), plainGitConfig+"[diff]\n\texternal = x\n")
		}, cwd: "r", cmd: "git diff"},
		{name: "unparsable .gitmodules", setup: func(t *testing.T, root string) {
			gitRepo(t, filepath.Join(root, ".git"), plainGitConfig)
			writeFiles(t, root, map[string]string{".gitmodules": "[submodule\n"})
		}, cmd: "git status", ask: true, reason: ".gitmodules"},
		{name: "ssh command in a partial clone", setup: config("[extensions]\n\tpartialClone = origin\n[core]\n\tsshCommand = ./x\n"), cmd: "git log -p", ask: true, reason: "partial clone"},
		{name: "ssh command in a full clone", setup: config("[core]\n\tsshCommand = ssh -i key\n"), cmd: "git log -p"},
		{name: "capitalised git", setup: config("[core]\n\tfsmonitor = x\n"), cmd: "GIT status", ask: true, reason: "core.fsmonitor"},
		{name: "other read-only commands are not checked", setup: config("[core]\n\tfsmonitor = x\n"), cmd: "Get-ChildItem src"},
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			c.setup(t, root)
			cwd := filepath.Join(root, filepath.FromSlash(c.cwd))
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			reg := testSpecs()

			// Claude (Bash and PowerShell): ask with the reason, or nothing.
			for _, tool := range []string{"Bash", "PowerShell"} {
				data := t.TempDir()
				ev := map[string]any{"session_id": "S", "tool_use_id": "U", "tool_name": tool, "tool_input": map[string]any{"command": c.cmd}, "cwd": cwd}
				r := run(t, reg, nil, eventJSON(ev), "claude", "pre-tool-use", "--data-dir", data)
				m := decodeOne(t, r.stdout)
				if !c.ask {
					if m != nil {
						t.Fatalf("%s: want no answer, got %v", tool, m)
					}
					continue
				}
				if m == nil {
					t.Fatalf("%s: want ask, got no answer", tool)
				}
				hso := m["hookSpecificOutput"].(map[string]any)
				reason, _ := hso["permissionDecisionReason"].(string)
				if hso["permissionDecision"] != "ask" || !strings.Contains(reason, c.reason) || !strings.Contains(reason, "approval-required") {
					t.Fatalf("%s: got %v, want ask naming %q", tool, hso, c.reason)
				}
				if _, recs := records(t, data); recs[0]["safety_class"] != "approval-required" {
					t.Fatalf("%s: record %v", tool, recs[0])
				}
			}

			// Copilot: the same decision.
			ev := map[string]any{"sessionId": "S", "toolName": "bash", "toolArgs": map[string]any{"command": c.cmd}, "cwd": cwd}
			m := decodeOne(t, run(t, reg, nil, eventJSON(ev), "copilot", "pre-tool-use", "--data-dir", t.TempDir()).stdout)
			if got, want := m != nil, c.ask; got != want {
				t.Fatalf("copilot answered %v, want ask %v", m, want)
			}
			if m != nil && (m["permissionDecision"] != "ask" || !strings.Contains(m["permissionDecisionReason"].(string), c.reason)) {
				t.Fatalf("copilot answered %v", m)
			}

			// Codex PreToolUse only denies; its record carries the class.
			data := t.TempDir()
			ev = map[string]any{"session_id": "S", "tool_use_id": "U", "tool_name": "Bash", "tool_input": map[string]any{"command": c.cmd}, "cwd": cwd}
			if r := run(t, reg, nil, eventJSON(ev), "codex", "pre-tool-use", "--data-dir", data); r.stdout != "" {
				t.Fatalf("codex answered %q", r.stdout)
			}
			want := "read-only"
			if c.ask {
				want = "approval-required"
			}
			if _, recs := records(t, data); recs[0]["safety_class"] != want {
				t.Fatalf("codex record class %v, want %s", recs[0]["safety_class"], want)
			}
		})
	}
}

// Without a cwd to find the repository in, a git read-only form cannot be checked, so
// it asks; one that does not run git is not affected; approval-required and forbidden
// keep their answers.
func TestGitReadOnlyFormWithoutCwd(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cmd, cwd string
		want     string
	}{
		{"git status", "", "ask"},
		{"git status", "relative/dir", "ask"},
		{"git status", filepath.Join(t.TempDir(), "missing"), "ask"},
		{"g\\it status", "", "ask"},
		{"Get-ChildItem src", "", ""},
		{"git push", "", "ask"},
		{"format C:", "", "deny"},
	}
	for _, c := range cases {
		ev := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": c.cmd}}
		if c.cwd != "" {
			ev["cwd"] = c.cwd
		}
		m := decodeOne(t, run(t, testSpecs(), nil, eventJSON(ev), "claude", "pre-tool-use", "--data-dir", t.TempDir()).stdout)
		got := ""
		if m != nil {
			got, _ = m["hookSpecificOutput"].(map[string]any)["permissionDecision"].(string)
		}
		if got != c.want {
			t.Errorf("%q in %q: %q, want %q (%v)", c.cmd, c.cwd, got, c.want, m)
		}
	}
}

func TestMayRunGit(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]bool{
		"git status": true, "GIT log": true, "C:\\Program Files\\Git\\cmd\\git.exe diff": true,
		"g\\it status": true, "g\"i\"t status": true, "$'\\x67it' status": true, "%G%it status": true,
		"g^it status": true, "g`it status": true, "{g,}it status": true, "gi? status": true,
		"Get-ChildItem src": false, "pytest -q": false, "where python": false, "go test ./...": false,
		`Get-ChildItem C:\src`: false, `Get-Content "a b.txt"`: false, "Get-ChildItem $env:USERPROFILE": true,
	} {
		if got := mayRunGit(cmd); got != want {
			t.Errorf("mayRunGit(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// The config reader follows git's syntax: sections, subsections old and new, keys
// without a value, quoting, escapes, comments, continuation lines, CR LF.
func TestParseGitConfig(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     []string // section|sub|key=value, or key without "=" for no value
		err      bool
	}{
		{name: "plain", in: plainGitConfig, want: []string{"core||repositoryformatversion=0", "core||filemode=true", "core||bare=false", "core||logallrefupdates=true",
			"remote|origin|url=https://example.invalid/x/y.git", "remote|origin|fetch=+refs/heads/*:refs/remotes/origin/*", "branch|main|remote=origin", "branch|main|merge=refs/heads/main"}},
		{name: "no value", in: "[core]\n\tfsmonitor\n", want: []string{"core||fsmonitor"}},
		{name: "no value at the end", in: "[core]\nfsmonitor", want: []string{"core||fsmonitor"}},
		{name: "header and key on one line", in: "[Core] FSMonitor = X", want: []string{"core||fsmonitor=X"}},
		{name: "old-style subsection lower-cased", in: "[Diff.PDF]\ntextconv=x", want: []string{"diff|pdf|textconv=x"}},
		{name: "new-style subsection keeps case and escapes", in: "[diff \"P\\\"D\\\\F\"]\ntextconv=x", want: []string{"diff|P\"D\\F|textconv=x"}},
		{name: "quotes, comments, spaces", in: "[a]\nk = \" x # y \" # z\n", want: []string{"a||k= x # y "}},
		{name: "inner blanks kept, outer dropped", in: "[a]\nk =   x \t y  \n", want: []string{"a||k=x   y"}},
		{name: "escapes", in: "[a]\nk = a\\tb\\nc\\\\d\\\"e\n", want: []string{"a||k=a\tb\nc\\d\"e"}},
		{name: "continuation", in: "[a]\nk = tr\\\nue\n", want: []string{"a||k=true"}},
		{name: "continuation at the end", in: "[a]\nk = x\\", want: []string{"a||k=x"}},
		{name: "CR LF", in: "[a]\r\nk = v\r\n", want: []string{"a||k=v"}},
		{name: "BOM and comments", in: "\xef\xbb\xbf# c\n; d\n[a]\n  # e\nk=v", want: []string{"a||k=v"}},
		{name: "empty value", in: "[a]\nk =\n", want: []string{"a||k="}},
		{name: "unknown escape", in: "[a]\nk = \\q\n", err: true},
		{name: "unterminated quote", in: "[a]\nk = \"x\n", err: true},
		{name: "key before a section", in: "k = v\n", err: true},
		{name: "key with a bad character", in: "[a]\nk_x = v\n", err: true},
		{name: "key starting with a digit", in: "[a]\n1k = v\n", err: true},
		{name: "unclosed header", in: "[a", err: true},
		{name: "unquoted subsection", in: "[a b]\n", err: true},
		{name: "newline in a subsection", in: "[a \"b\nc\"]\n", err: true},
		{name: "junk after a key", in: "[a]\nk x\n", err: true},
	}
	for _, c := range cases {
		var got []string
		err := parseGitConfig([]byte(c.in), func(section, sub, key, value string, hasValue bool) bool {
			s := section + "|" + sub + "|" + key
			if hasValue {
				s += "=" + value
			}
			got = append(got, s)
			return true
		})
		if (err != nil) != c.err {
			t.Errorf("%s: error %v, want error %v", c.name, err, c.err)
			continue
		}
		if c.err {
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

// FuzzParseGitConfig: the reader never panics, reports each variable with lower-case
// section and key names made of key characters, and the rules never panic either.
func FuzzParseGitConfig(f *testing.F) {
	for _, s := range []string{plainGitConfig, "[core] fsmonitor", "[diff \"a\\\"b\"]\ntextconv = \"x\" ; c\n", "[a]\nk = x\\\n y", "[a.b]\r\nk=\"\\t\"", "\xef\xbb\xbf[a]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = parseGitConfig(data, func(section, sub, key, value string, hasValue bool) bool {
			if key == "" || !isAlpha(key[0]) || strings.ToLower(key) != key || strings.ToLower(section) != section {
				t.Fatalf("variable %q.%q.%q", section, sub, key)
			}
			for i := range len(key) {
				if !isKeyChar(key[i]) {
					t.Fatalf("key %q", key)
				}
			}
			if !hasValue && value != "" {
				t.Fatalf("value %q without =", value)
			}
			return true
		})
		_ = configProgram(data)
	})
}

// BenchmarkGitRepoCheck is the cost of the check on a git read-only form in a
// repository with a plain config, three directories below its root, next to a
// read-only command that does not run git (no check).
func BenchmarkGitRepoCheck(b *testing.B) {
	root := b.TempDir()
	gitRepo(b, filepath.Join(root, ".git"), plainGitConfig)
	cwd := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		b.Fatal(err)
	}
	c := &call{specs: testSpecs()}
	for name, cmd := range map[string]string{"git-status": "git status --short", "Get-ChildItem": "Get-ChildItem src"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			input := map[string]any{"command": cmd}
			for b.Loop() {
				if class, _ := c.decide("Bash", input, cwd); class != "read-only" {
					b.Fatal(class)
				}
			}
		})
	}
}
