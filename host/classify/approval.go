package classify

// approvalPatterns are the commands that always need approval, wherever they appear
// in a command line that is otherwise read-only or reversible (git status rm, pytest
// --rm). A space stands for one or more white-space characters; each pattern starts
// and ends at a word boundary; the table is indexed by first letter. They are the approval patterns of the classifier before
// docs/safety/shell-classifier.md, which the differential fuzz test holds it to.
var approvalPatterns = [26][]string{
	'c' - 'a': {"choco install", "choco upgrade", "choco uninstall", "cargo install", "cargo add",
		"cargo remove", "cargo uninstall", "cargo update", "cargo upgrade"},
	'd' - 'a': {"disable-windowsoptionalfeature", "del"},
	'e' - 'a': {"enable-windowsoptionalfeature", "erase"},
	'g' - 'a': {"git push", "git commit", "git merge", "git rebase", "git reset", "git clean",
		"gh pr create", "gh pr merge", "gh release create"},
	'i' - 'a': {"invoke-expression"},
	'n' - 'a': {"npm install", "npm add", "npm remove", "npm uninstall", "npm update", "npm upgrade",
		"new-item", "new-itemproperty"},
	'p' - 'a': {"pip install", "pip add", "pip remove", "pip uninstall", "pip update", "pip upgrade",
		"pnpm install", "pnpm add", "pnpm remove", "pnpm uninstall", "pnpm update", "pnpm upgrade"},
	'r' - 'a': {"reg add", "reg delete", "remove-item", "rm", "rmdir"},
	's' - 'a': {"scoop install", "scoop upgrade", "scoop uninstall", "set-item", "set-itemproperty",
		"start-process"},
	'u' - 'a': {"uv install", "uv add", "uv remove", "uv uninstall", "uv update", "uv upgrade"},
	'w' - 'a': {"winget install", "winget upgrade", "winget uninstall"},
	'y' - 'a': {"yarn install", "yarn add", "yarn remove", "yarn uninstall", "yarn update",
		"yarn upgrade"},
}

// approvalWords returns the text of the first approval pattern in the folded view v,
// or "".
func approvalWords(v []byte) string {
	for i := 0; i < len(v); i++ {
		c := lc(v[i])
		if c < 'a' || c > 'z' || i > 0 && isWord(v[i-1]) {
			continue
		}
		for _, p := range approvalPatterns[c-'a'] {
			if n := seqAt(v, i, p); n > 0 {
				return string(v[i : i+n])
			}
		}
	}
	return ""
}

// seqAt matches pattern p at v[i:] (a space in p matches one or more white-space
// bytes) followed by a word boundary, and returns the length matched or 0.
func seqAt(v []byte, i int, p string) int {
	j := i
	for k := 0; k < len(p); k++ {
		if p[k] == ' ' {
			if j >= len(v) || !isSpace(v[j]) {
				return 0
			}
			for j < len(v) && isSpace(v[j]) {
				j++
			}
			continue
		}
		if j >= len(v) || lc(v[j]) != p[k] {
			return 0
		}
		j++
	}
	if j < len(v) && isWord(v[j]) {
		return 0
	}
	return j - i
}
