package classify

// approvalPatterns are the commands that always need approval, wherever they appear
// in a command line that is otherwise read-only or reversible (git status rm, pytest
// --rm). A space stands for one or more white-space characters; each pattern starts
// and ends at a word boundary. They are the approval patterns of the classifier before
// docs/safety/shell-classifier.md, which the differential fuzz test holds it to.
var approvalPatterns = [...]string{
	"winget install", "winget upgrade", "winget uninstall",
	"choco install", "choco upgrade", "choco uninstall",
	"scoop install", "scoop upgrade", "scoop uninstall",
	"pip install", "pip add", "pip remove", "pip uninstall", "pip update", "pip upgrade",
	"uv install", "uv add", "uv remove", "uv uninstall", "uv update", "uv upgrade",
	"npm install", "npm add", "npm remove", "npm uninstall", "npm update", "npm upgrade",
	"pnpm install", "pnpm add", "pnpm remove", "pnpm uninstall", "pnpm update", "pnpm upgrade",
	"yarn install", "yarn add", "yarn remove", "yarn uninstall", "yarn update", "yarn upgrade",
	"cargo install", "cargo add", "cargo remove", "cargo uninstall", "cargo update", "cargo upgrade",
	"git push", "git commit", "git merge", "git rebase", "git reset", "git clean",
	"gh pr create", "gh pr merge", "gh release create",
	"reg add", "reg delete",
	"set-item", "set-itemproperty", "new-item", "new-itemproperty",
	"remove-item",
	"enable-windowsoptionalfeature", "disable-windowsoptionalfeature",
	"invoke-expression", "start-process",
	"rm", "del", "erase", "rmdir",
}

// approvalWords returns the text of the first approval pattern in cmd, or "".
func approvalWords(cmd string) string {
	v := fold(cmd)
	for i := 0; i < len(v); i++ {
		c := lc(v[i])
		if c < 'a' || c > 'z' || i > 0 && isWord(v[i-1]) {
			continue
		}
		for _, p := range approvalPatterns {
			if p[0] != c {
				continue
			}
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
