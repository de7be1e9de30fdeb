package classify

import (
	"bytes"
	"strings"
)

// The forbidden rules (docs/safety/shell-classifier.md, "Forbidden"). They are matched
// anywhere in every view of the command, whatever command carries them (a string
// handed to iex, an argument of Start-Process, wsl -- …), so a disguise has to defeat
// every view at once.

// Reasons of the forbidden rules, shown in hook messages.
const (
	reasonDiskpart   = "diskpart (disk partitioning) is forbidden"
	reasonBcdedit    = "bcdedit (boot configuration) is forbidden"
	reasonFormat     = "formatting a drive is forbidden"
	reasonDiskCmdlet = "erasing a disk, partition or volume is forbidden"
	reasonCipher     = "cipher /w (wiping a drive's free space) is forbidden"
	reasonRegistry   = "removing, moving or clearing keys of HKLM (or of HKCR or HKCC, which show parts of it) is forbidden"
	reasonSystemPath = "removing, moving or clearing the Windows directory, its system directories or a whole drive is forbidden"
)

type wordKind uint8

const (
	wDiskpart wordKind = iota + 1
	wBcdedit
	wFormat     // format[.com|.exe] followed by a drive
	wDiskCmdlet // Format-Volume, Clear-Disk, Remove-Partition
	wCipher     // cipher, then a /w switch later on
	wVerb       // removes, moves, renames or clears its target
	wRegistry   // a protected registry hive
	wSysDir     // the system directory named by a word
	wFolderPath // [Environment]::GetFolderPath, protected with System/SystemX86/Windows
)

type ruleWord struct {
	s    string // lower case; may contain '-' and '_'
	kind wordKind
}

// forbiddenWords, indexed by first letter, are matched at word boundaries, without
// regard to case. The verbs are PowerShell's removal, move, rename and clear cmdlets
// with their aliases, cmd's and bash's, .NET's Delete and reg delete.
var forbiddenWords = [26][]ruleWord{
	'b' - 'a': {{"bcdedit", wBcdedit}},
	'c' - 'a': {{"cipher", wCipher}, {"clear-disk", wDiskCmdlet},
		{"clear-item", wVerb}, {"cli", wVerb}, {"clear-itemproperty", wVerb}, {"clp", wVerb}},
	'd' - 'a': {{"diskpart", wDiskpart}, {"del", wVerb}, {"deltree", wVerb}, {"delete", wVerb}},
	'e' - 'a': {{"erase", wVerb}},
	'f' - 'a': {{"format", wFormat}, {"format-volume", wDiskCmdlet}},
	'g' - 'a': {{"getfolderpath", wFolderPath}},
	'h' - 'a': {{"hklm", wRegistry}, {"hkey_local_machine", wRegistry}, {"hkcr", wRegistry},
		{"hkey_classes_root", wRegistry}, {"hkcc", wRegistry}, {"hkey_current_config", wRegistry}},
	'm' - 'a': {{"move-item", wVerb}, {"mi", wVerb}, {"mv", wVerb}, {"move", wVerb}},
	'r' - 'a': {{"remove-partition", wDiskCmdlet}, {"remove-item", wVerb}, {"ri", wVerb},
		{"rm", wVerb}, {"rmdir", wVerb}, {"rd", wVerb}, {"remove-itemproperty", wVerb}, {"rp", wVerb},
		{"rename-item", wVerb}, {"rni", wVerb}, {"ren", wVerb}, {"rename", wVerb}},
	's' - 'a': {{"shred", wVerb}, {"sdelete", wVerb}, {"sdelete64", wVerb}, {"systemdirectory", wSysDir}},
	'u' - 'a': {{"unlink", wVerb}},
}

// wordAt reports whether v holds w at i followed by a word boundary (the caller checks
// the boundary before i).
func wordAt(v []byte, i int, w string) bool {
	if len(v)-i < len(w) {
		return false
	}
	for k := 0; k < len(w); k++ {
		if lc(v[i+k]) != w[k] {
			return false
		}
	}
	return i+len(w) == len(v) || !isWord(v[i+len(w)])
}

// hasFold reports whether v holds s (lower case) at i, ignoring case, without boundaries.
func hasFold(v []byte, i int, s string) bool {
	if len(v)-i < len(s) {
		return false
	}
	for k := 0; k < len(s); k++ {
		if lc(v[i+k]) != s[k] {
			return false
		}
	}
	return true
}

// scanView applies every forbidden rule to one folded view and returns the reason of
// the first that matches, or "".
func scanView(v []byte) string {
	var verb, registry, sysPath, cipher bool
	cipherEnd := -1 // where the last cipher[.exe] word ends: cmd reads cipher/w: too
	for i := 0; i < len(v); i++ {
		c := lc(v[i])
		// The two targets of the old rule match without word boundaries.
		if c == 'h' && hasFold(v, i, "hklm:") {
			registry = true
		}
		if c == 'c' && hasFold(v, i, `c:\windows\system32`) {
			sysPath = true
		}
		if cipher && (c == '/' || c == '-') && i > 0 && (isSpace(v[i-1]) || i == cipherEnd) && i+1 < len(v) && lc(v[i+1]) == 'w' &&
			(i+2 == len(v) || v[i+2] == ':' || isSpace(v[i+2])) {
			return reasonCipher
		}
		if c < 'a' || c > 'z' || i > 0 && isWord(v[i-1]) {
			continue
		}
		for k := range forbiddenWords[c-'a'] {
			w := &forbiddenWords[c-'a'][k]
			if !wordAt(v, i, w.s) {
				continue
			}
			switch w.kind {
			case wDiskpart:
				return reasonDiskpart
			case wBcdedit:
				return reasonBcdedit
			case wDiskCmdlet:
				return reasonDiskCmdlet
			case wFormat:
				if formatsDrive(v, i+len(w.s)) {
					return reasonFormat
				}
			case wCipher:
				cipher, cipherEnd = true, extEnd(v, i+len(w.s))
			case wVerb:
				verb = true
			case wRegistry:
				registry = true
			case wSysDir:
				sysPath = true
			case wFolderPath:
				if folderPathProtected(v, i+len(w.s)) {
					sysPath = true
				}
			}
		}
	}
	switch {
	case !verb:
	case registry:
		return reasonRegistry
	case sysPath || protectedPath(v):
		return reasonSystemPath
	}
	return ""
}

// formatsDrive reads what follows the word format at j: an optional .com/.exe/.bat/
// .cmd, white space or a switch, at most eight switches, then a drive letter and ':'
// or a volume path (\\?\…, \\.\…). The switch limit keeps the rule linear.
func formatsDrive(v []byte, j int) bool {
	j = extEnd(v, j)
	if j >= len(v) || !isSpace(v[j]) && v[j] != '/' {
		return false // cmd reads format/q C: as format /q C:
	}
	for n := 0; ; n++ {
		for j < len(v) && isSpace(v[j]) {
			j++
		}
		if j >= len(v) {
			return false
		}
		if v[j] != '/' && v[j] != '-' || n == 8 {
			break
		}
		for j < len(v) && !isSpace(v[j]) {
			j++
		}
	}
	if j+1 < len(v) && isLetter(v[j]) && v[j+1] == ':' {
		return true
	}
	return hasFold(v, j, `\\?\`) || hasFold(v, j, `\\.\`)
}

// extEnd skips an executable extension (.com .exe .bat .cmd) at j.
func extEnd(v []byte, j int) int {
	if j+4 <= len(v) && v[j] == '.' && (hasFold(v, j, ".com") || hasFold(v, j, ".exe") || hasFold(v, j, ".bat") || hasFold(v, j, ".cmd")) &&
		(j+4 == len(v) || !isWord(v[j+4])) {
		return j + 4
	}
	return j
}

// folderPathProtected: GetFolderPath followed, after at most 16 bytes of punctuation,
// by System, SystemX86 or Windows (the special folders of system32 and the Windows
// directory).
func folderPathProtected(v []byte, j int) bool {
	for n := 0; j < len(v) && n < 16 && !isLetter(v[j]); n++ {
		j++
	}
	return wordAt(v, j, "system") || wordAt(v, j, "systemx86") || wordAt(v, j, "windows")
}

// Component kinds on the path stack.
const (
	kWin = 1 << iota // matches "windows" (glob or 8.3 name)
	kSys             // matches system32, syswow64 or sysnative
	kMnt             // /mnt or /cygdrive right after a leading separator
)

// protectedPath reports whether a path in v names the Windows directory, anything in
// or under its system directories, or a drive root (every one of which contains them),
// after resolving . and .., 8.3 names, wildcards, streams, trailing dots, device and
// UNC prefixes, admin shares and environment variables (docs/safety/shell-classifier.md).
func protectedPath(v []byte) bool {
	var kinds []uint8
	unclosed := false
	for i := 0; i < len(v); {
		for i < len(v) && isPathTerm(v, i) {
			i++
		}
		j := i
		for j < len(v) && !isPathTerm(v, j) {
			if v[j] == '$' && j+1 < len(v) && v[j+1] == '{' && !unclosed {
				// ${env:windir} stays one word.
				if k := bytes.IndexByte(v[j:], '}'); k > 0 {
					j += k + 1
					continue
				}
				unclosed = true // no } in the rest: stop looking (linear time)
			}
			j++
		}
		if j > i && mayBeRooted(v[i:j]) {
			var hit bool
			if kinds, hit = pathHits(v[i:j], kinds[:0]); hit {
				return true
			}
		}
		i = j
	}
	return false
}

// mayBeRooted is a quick test that p can reach a root in pathHits: it needs a
// separator, a drive or stream colon, a variable or share sign, or a device name.
func mayBeRooted(p []byte) bool {
	return bytes.ContainsAny(p, `\/:$%!`) || hasFold(p, 0, "harddiskvolume") || hasFold(p, 0, "volume{")
}

func isPathTerm(v []byte, i int) bool {
	c := v[i]
	return isSpace(c) || strings.IndexByte(";|&<>(){},\"'=`", c) >= 0
}

func isSep(c byte) bool { return c == '\\' || c == '/' }

func pathHits(p []byte, kinds []uint8) ([]uint8, bool) {
	lead := isSep(p[0])
	rooted := lead      // the stack starts at a drive root (or a UNC host)
	climbed := false    // rooted only because .. climbed above a relative start
	devicePhase := lead // every component so far is a device prefix (\\?\, \??\, \\.\)
	driveOK := !lead    // a drive may come next: first in the path, or after a device prefix
	atLead := lead      // nothing but the leading separator seen yet
	first := true
	for i := 0; i < len(p); {
		for i < len(p) && isSep(p[i]) {
			i++
		}
		j := i
		for j < len(p) && !isSep(p[j]) {
			j++
		}
		if j == i {
			break
		}
		c, last := p[i:j], j == len(p)
		wasFirst := first
		first = false
		i = j
		if devicePhase && (eqFold(c, "?") || eqFold(c, "??") || eqFold(c, ".") || eqFold(c, "globalroot") || eqFold(c, "device")) {
			driveOK = true
			continue
		}
		devicePhase = false
		if isDots(c) {
			if len(c) == 2 {
				if len(kinds) > 0 {
					kinds = kinds[:len(kinds)-1]
				} else if !rooted {
					rooted, climbed = true, true
				}
			}
			continue
		}
		wasDriveOK, wasAtLead := driveOK, atLead
		driveOK, atLead = false, false
		n := len(c)
		if wasDriveOK && n >= 2 && c[n-1] == ':' && isLetter(c[n-2]) && (n == 2 || c[n-3] == ':') {
			rooted, climbed, kinds = true, false, kinds[:0] // C:, -Path:C:, FileSystem::C:, \\?\C:
			continue
		}
		if wasDriveOK && n > 2 && isLetter(c[0]) && c[1] == ':' && c[2] != ':' {
			rooted, climbed, kinds = true, false, kinds[:0] // C:Windows, relative to the drive's current directory
			c = c[2:]
		} else if !wasFirst {
			if k := bytes.IndexByte(c, ':'); k > 0 {
				c = c[:k] // an alternate stream: System32::$INDEX_ALLOCATION
			}
		}
		if len(c) == 2 && isLetter(c[0]) && c[1] == '$' {
			rooted, climbed, kinds = true, false, kinds[:0] // \\host\C$
			continue
		}
		if eqFold(c, "admin$") {
			rooted, climbed, kinds = true, false, append(kinds[:0], kWin)
			continue
		}
		if hasFold(c, 0, "harddiskvolume") || hasFold(c, 0, "volume{") {
			rooted, climbed, kinds = true, false, kinds[:0]
			continue
		}
		switch envName(c) {
		case "windir", "systemroot":
			rooted, climbed, kinds = true, false, append(kinds[:0], kWin)
			continue
		case "systemdrive":
			rooted, climbed, kinds = true, false, kinds[:0]
			continue
		case "comspec":
			return kinds, true
		}
		if wasAtLead && len(c) == 1 && isLetter(c[0]) && !last {
			continue // /c/… is drive C in Git Bash and MSYS
		}
		if lead && len(kinds) == 1 && kinds[0]&kMnt != 0 && len(c) == 1 && isLetter(c[0]) {
			kinds = kinds[:0] // /mnt/c, /cygdrive/c
			continue
		}
		c = trimDotsSpaces(c)
		if len(c) == 0 {
			continue
		}
		var k uint8
		if matchesName(c, "windows") {
			k |= kWin
		}
		if matchesName(c, "system32") || matchesName(c, "syswow64") || matchesName(c, "sysnative") {
			k |= kSys
		}
		if wasAtLead && (eqFold(c, "mnt") || eqFold(c, "cygdrive")) {
			k |= kMnt
		}
		kinds = append(kinds, k)
		if rooted && len(kinds) >= 2 && kinds[0]&kWin != 0 && kinds[1]&kSys != 0 {
			return kinds, true
		}
	}
	if rooted && !climbed && (len(kinds) == 0 || len(kinds) == 1 && kinds[0]&kWin != 0) {
		return kinds, true
	}
	return kinds, false
}

// isDots: "." and ".." (and "..." and longer, which Windows reads as "." since it
// drops trailing dots).
func isDots(c []byte) bool {
	for _, b := range c {
		if b != '.' {
			return false
		}
	}
	return true
}

func trimDotsSpaces(c []byte) []byte {
	for len(c) > 0 && (c[len(c)-1] == '.' || c[len(c)-1] == ' ') {
		c = c[:len(c)-1]
	}
	return c
}

func eqFold(c []byte, s string) bool { return len(c) == len(s) && hasFold(c, 0, s) }

// envName is the variable a component names ($env:windir, ${env:windir}, %windir%,
// !windir!, $WINDIR), in lower case, or "".
func envName(c []byte) string {
	if len(c) < 2 || c[0] != '$' && c[0] != '%' && c[0] != '!' {
		return ""
	}
	c = c[1:]
	if c[0] == '{' {
		c = c[1:]
	}
	if hasFold(c, 0, "env:") {
		c = c[4:]
	}
	for len(c) > 0 && (c[len(c)-1] == '%' || c[len(c)-1] == '!' || c[len(c)-1] == '}') {
		c = c[:len(c)-1]
	}
	for _, s := range []string{"windir", "systemroot", "systemdrive", "comspec"} {
		if eqFold(c, s) {
			return s
		}
	}
	return ""
}

// matchesName reports whether a path component can name the directory called name:
// the name itself, a wildcard pattern matching it (* ? [set], as PowerShell, cmd and
// bash expand them) or an 8.3 short name (SYSTEM~1).
func matchesName(c []byte, name string) bool {
	if !bytes.ContainsAny(c, "*?[") {
		if eqFold(c, name) {
			return true
		}
	} else if globMatch(c, name) {
		return true
	}
	t := bytes.IndexByte(c, '~')
	if t < 1 || t > 6 || t+1 >= len(c) || t > len(name) {
		return false
	}
	for _, b := range c[t+1:] {
		if b < '0' || b > '9' {
			return false
		}
	}
	for k := 0; k < t; k++ {
		if lc(c[k]) != name[k] {
			return false
		}
	}
	return true // an 8.3 name: up to six letters of the name, ~, digits
}

// globMatch matches pattern p (any case) against the lower-case name s, with * ? and
// [set] as PowerShell, cmd and bash expand them. The pattern is first cut into
// elements (runs of * collapsed, each [set] located once); a pattern with more
// single-character elements than s has letters cannot match, so at most len(s)+1 of
// them are read and the whole match is linear in len(p).
func globMatch(p []byte, s string) bool {
	var buf [24]globElem // names are at most nine letters: at most 19 elements
	elems, single := buf[:0], 0
	for i := 0; i < len(p); {
		e := globElem{kind: p[i]}
		switch p[i] {
		case '*':
			for i < len(p) && p[i] == '*' {
				i++
			}
		case '?':
			i++
		case '[':
			if end := classEnd(p, i); end > 0 {
				e.set = p[i+1 : end]
				i = end + 1
				break
			}
			e.kind = 0 // an unclosed [ is literal
			fallthrough
		default:
			e.lit = lc(p[i])
			i++
		}
		if e.kind != '*' {
			if single++; single > len(s) {
				return false
			}
		}
		elems = append(elems, e)
	}
	return matchElems(elems, s)
}

type globElem struct {
	kind byte   // '*', '?', '[' or 0 (a literal)
	lit  byte   // the literal, lower case
	set  []byte // the bracket's contents
}

// classEnd is the index of the ] closing the [ at p[i], or 0. A ] right after [ or
// [! is part of the set.
func classEnd(p []byte, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	if k := bytes.IndexByte(p[j:], ']'); k >= 0 {
		return j + k
	}
	return 0
}

// matchElems is the single-backtrack wildcard algorithm over elements.
func matchElems(es []globElem, s string) bool {
	ex, sx := 0, 0
	starEx, starSx := -1, 0
	for ex < len(es) || sx < len(s) {
		if ex < len(es) {
			if es[ex].kind == '*' {
				starEx, starSx = ex, sx
				ex++
				continue
			}
			if sx < len(s) && es[ex].matches(s[sx]) {
				ex++
				sx++
				continue
			}
		}
		if starEx >= 0 && starSx < len(s) {
			starSx++
			ex, sx = starEx+1, starSx
			continue
		}
		return false
	}
	return true
}

func (e *globElem) matches(b byte) bool {
	switch e.kind {
	case '?':
		return true
	case '[':
		set, neg := e.set, false
		if len(set) > 0 && (set[0] == '!' || set[0] == '^') {
			set, neg = set[1:], true
		}
		hit := false
		for i := 0; i < len(set) && !hit; i++ {
			lo, hi := lc(set[i]), lc(set[i])
			if i+2 < len(set) && set[i+1] == '-' {
				hi = lc(set[i+2])
				i += 2
			}
			hit = lo <= b && b <= hi
		}
		return hit != neg
	}
	return e.lit == b
}

// RemovalVerbs are the words the forbidden rules take as removing, moving, renaming or
// clearing their target, and ProtectedHives the registry roots those rules protect, in
// lower case. They are for a host whose own policy restates the plain forms of the
// rules because no hook of ours runs there (gen's Gemini policy, docs/hosts/gemini.md).
func RemovalVerbs() []string { return wordsOf(wVerb) }

// ProtectedHives: see RemovalVerbs.
func ProtectedHives() []string { return wordsOf(wRegistry) }

func wordsOf(kind wordKind) []string {
	var out []string
	for _, ws := range forbiddenWords {
		for _, w := range ws {
			if w.kind == kind {
				out = append(out, w.s)
			}
		}
	}
	return out
}
