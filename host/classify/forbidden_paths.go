package classify

import (
	"bytes"
	"strings"
)

// The path resolver of the forbidden rules (docs/safety/shell-classifier.md,
// "Forbidden rules"): whether a path in a command names the Windows directory,
// anything in or under its system directories, or a whole drive.

// Component kinds on the path stack.
const (
	kWin = 1 << iota // matches "windows" (glob or 8.3 name)
	kSys             // matches system32, syswow64 or sysnative
	kMnt             // /mnt or /cygdrive right after a leading separator
	kAny             // nothing but '*': matches any name
)

// pathState is where a walk through a path stands. Only the first two components
// decide a hit (the Windows directory, then a system directory), so the stack keeps
// their kinds and its depth: a state is a small value, copied freely.
type pathState struct {
	rooted bool     // the stack starts at a drive root (or a UNC host)
	up     int      // not rooted: how many levels .. climbed above the (unknown) start
	depth  int      // components on the stack
	k      [2]uint8 // kinds of the first two components
}

func (s *pathState) reset(rooted bool) { *s = pathState{rooted: rooted} }

func (s *pathState) push(k uint8) {
	if s.depth < 2 {
		s.k[s.depth] = k
	}
	s.depth++
}

func (s *pathState) pop() {
	switch {
	case s.depth > 0:
		s.depth--
	case !s.rooted:
		s.up++
	}
}

// inSystem: at or under a system directory of the Windows directory, from a root or
// from a relative start that .. climbed above.
func (s *pathState) inSystem() bool {
	return (s.rooted || s.up > 0) && s.depth >= 2 && s.k[0]&kWin != 0 && s.k[1]&kSys != 0
}

// endHit: where a path ends is protected: a system directory or below it; a drive
// root or the Windows directory; or, from a relative start climbed two levels or more,
// a directory named Windows (a wildcard that matches anything is not enough there).
// A single .. to a "windows" directory stays allowed: cross-platform projects have one
// beside their sources.
func (s *pathState) endHit() bool {
	switch {
	case s.inSystem():
		return true
	case s.rooted:
		return s.depth == 0 || s.depth == 1 && s.k[0]&kWin != 0
	}
	return s.up >= 2 && s.depth == 1 && s.k[0]&kWin != 0 && s.k[0]&kAny == 0
}

// envDirEntry is what an environment or automatic variable holds on a standard
// Windows installation: a rooted path of depth components whose first two are k0, k1.
type envDirEntry struct {
	name   string
	depth  int
	k0, k1 uint8
}

func (d envDirEntry) state() pathState {
	return pathState{rooted: true, depth: d.depth, k: [2]uint8{d.k0, d.k1}}
}

// envDirs: the variables whose values the resolver knows. The Windows directory and
// the system drive, and the places whose .. climbs reach them: cmd's %__APPDIR__%
// (the running program's directory: System32 for cmd.exe), PowerShell's $PSHOME
// (System32\WindowsPowerShell\v1.0), Program Files, ProgramData, the user profile
// and its AppData, ~ and $HOME.
var envDirs = [...]envDirEntry{
	{"windir", 1, kWin, 0}, {"systemroot", 1, kWin, 0},
	{"systemdrive", 0, 0, 0}, {"homedrive", 0, 0, 0},
	{"comspec", 3, kWin, kSys}, {"__appdir__", 2, kWin, kSys}, {"pshome", 4, kWin, kSys},
	{"programfiles", 1, 0, 0}, {"programfiles(x86)", 1, 0, 0}, {"programw6432", 1, 0, 0},
	{"commonprogramfiles", 2, 0, 0}, {"commonprogramfiles(x86)", 2, 0, 0}, {"commonprogramw6432", 2, 0, 0},
	{"programdata", 1, 0, 0}, {"allusersprofile", 1, 0, 0}, {"public", 2, 0, 0},
	{"userprofile", 2, 0, 0}, {"homepath", 2, 0, 0}, {"home", 2, 0, 0},
	{"appdata", 4, 0, 0}, {"localappdata", 4, 0, 0}, {"temp", 5, 0, 0}, {"tmp", 5, 0, 0},
}

func envDir(name []byte) (envDirEntry, bool) {
	if len(name) == 0 {
		return envDirEntry{}, false
	}
	for _, d := range envDirs {
		if eqFold(name, d.name) {
			return d, true
		}
	}
	return envDirEntry{}, false
}

// varName is the variable a component names ($env:windir, ${env:windir}, %windir%,
// !windir!, $WINDIR, $PSHOME), or nil.
func varName(c []byte) []byte {
	if len(c) < 2 || c[0] != '$' && c[0] != '%' && c[0] != '!' {
		return nil
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
	return c
}

// cdWords change the current directory, so that the relative paths after them start
// where they lead.
var cdWords = [...]string{"cd", "chdir", "set-location", "sl", "pushd", "push-location"}

// protectedPath reports whether a path in v names the Windows directory, anything in
// or under its system directories, or a drive root (every one of which contains them),
// after resolving . and .., 8.3 names, wildcards, streams, trailing dots, device and
// UNC prefixes, admin shares, environment variables and provider paths. A change of
// directory (cd, Set-Location, pushd) moves the start of the relative paths after it
// in the same command.
func protectedPath(v []byte) bool {
	var cwd pathState // where relative paths start: unknown until a cd says
	cdNext := false
	unclosed := false
	for i := 0; i < len(v); {
		for i < len(v) && isPathTerm(v, i) {
			if isCmdSep(v[i]) {
				cdNext = false
			}
			i++
		}
		j := i
		for j < len(v) {
			if v[j] == '$' && j+1 < len(v) && v[j+1] == '{' && !unclosed {
				// ${env:windir} stays one word.
				if k := bytes.IndexByte(v[j:], '}'); k > 0 {
					j += k + 1
					continue
				}
				unclosed = true // no } in the rest: stop looking (linear time)
			}
			if v[j] == '(' && j > i && hasFold(v, j, "(x86)") {
				j += 5 // %ProgramFiles(x86)% stays one word
				continue
			}
			if isPathTerm(v, j) {
				break
			}
			j++
		}
		if j == i {
			break
		}
		tok := v[i:j]
		i = j
		if isCdWord(tok) {
			cdNext = true
			continue
		}
		if len(tok) > 2 && hasFold(tok, 0, "cd") && (tok[2] == '.' || isSep(tok[2])) {
			tok, cdNext = tok[2:], true // cmd's cd.. and cd\
		}
		if cdNext {
			if tok[0] == '-' {
				k := bytes.IndexByte(tok, ':')
				if k < 0 || k+1 == len(tok) {
					continue // -Path, -LiteralPath: the target follows
				}
				tok = tok[k+1:] // -Path:..\..
			} else if eqFold(tok, "/d") {
				continue
			}
			cdNext = false
			st, hit := walkPath(tok, cwd)
			if hit {
				return true
			}
			cwd = st
			continue
		}
		if cwd.rooted || cwd.up > 0 || mayBeRooted(tok) {
			if _, hit := walkPath(tok, cwd); hit {
				return true
			}
		}
	}
	return false
}

func isCdWord(tok []byte) bool {
	for _, w := range cdWords {
		if eqFold(tok, w) {
			return true
		}
	}
	return false
}

// mayBeRooted is a quick test that p can reach a root in walkPath: it needs a
// separator, a drive, stream or provider colon, a variable or share sign, or a device
// name.
func mayBeRooted(p []byte) bool {
	return bytes.ContainsAny(p, `\/:$%!`) || hasFold(p, 0, "harddiskvolume") || hasFold(p, 0, "volume{")
}

func isPathTerm(v []byte, i int) bool {
	c := v[i]
	return isSpace(c) || strings.IndexByte(";|&<>(){},\"'=`", c) >= 0
}

func isSep(c byte) bool { return c == '\\' || c == '/' }

// isDeviceDir: the components of a device prefix after which a drive may follow:
// \\?\, \\.\, \??\, \\?\GLOBALROOT\, \Device\, \GLOBAL??\, \DosDevices\, \Global\.
func isDeviceDir(c []byte) bool {
	for _, w := range [...]string{"?", "??", ".", "globalroot", "device", "global??", "dosdevices", "global"} {
		if eqFold(c, w) {
			return true
		}
	}
	return false
}

// numbered: name followed by at least one digit and nothing else (Harddisk0, Partition3).
func numbered(c []byte, name string) bool {
	if len(c) <= len(name) || !hasFold(c, 0, name) {
		return false
	}
	for _, b := range c[len(name):] {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// walkPath walks the path p from st (where relative paths start) and returns where it
// ends and whether it touched a protected place on the way.
func walkPath(p []byte, st pathState) (pathState, bool) {
	lead := isSep(p[0])
	if lead {
		st.reset(true)
	}
	devicePhase := lead // every component so far is a device prefix (\\?\, \??\, \\.\)
	driveOK := !lead    // a drive may come next: first in the path, or after a device prefix
	atLead := lead      // nothing but the leading separator seen yet
	first := true
	envNext := false // the component after Env:\ names a variable
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
		if i > 0 && p[i-1] == '/' && string(p[i:j]) == "proc" && bytes.HasPrefix(p[j:], []byte("/cygdrive/")) {
			i = j
			continue // Cygwin's and MSYS2's /proc/cygdrive/ is /cygdrive/, the same directory
		}
		c, last := p[i:j], j == len(p)
		wasFirst := first
		first = false
		i = j
		if envNext {
			envNext = false
			if d, ok := envDir(c); ok {
				st = d.state()
				continue
			}
		}
		if devicePhase {
			switch {
			case isDeviceDir(c):
				driveOK = true
				continue
			case numbered(c, "harddisk"):
				continue // \Device\Harddisk0\Partition3
			case numbered(c, "partition") || eqFold(c, "bootdevice"):
				st.reset(true)
				devicePhase = false
				continue
			case eqFold(c, "systemroot"): // \\?\GLOBALROOT\SystemRoot, the NT link to the Windows directory
				st.reset(true)
				st.push(kWin)
				devicePhase = false
				continue
			}
		}
		devicePhase = false
		// Provider paths: [Module\]FileSystem::C:\…, [Module\]Environment::windir.
		if k := bytes.Index(c, []byte("::")); k > 0 {
			switch prov := c[:k]; {
			case eqFold(prov, "filesystem"):
				st.reset(false)
				c, driveOK, devicePhase, wasFirst = c[k+2:], true, true, true
				if len(c) == 0 {
					continue
				}
				devicePhase = false
			case eqFold(prov, "environment"):
				if len(c) == k+2 {
					envNext = true
					continue
				}
				if d, ok := envDir(c[k+2:]); ok {
					st = d.state()
					continue
				}
			}
		}
		// PowerShell's Env: drive: Env:windir, Env:\windir.
		if hasFold(c, 0, "env:") {
			if len(c) == 4 {
				envNext = true
				continue
			}
			if d, ok := envDir(c[4:]); ok {
				st = d.state()
				continue
			}
		}
		if isDots(c) {
			if len(c) == 2 {
				st.pop()
			}
			continue
		}
		wasDriveOK, wasAtLead := driveOK, atLead
		driveOK, atLead = false, false
		n := len(c)
		if wasDriveOK && n >= 2 && c[n-1] == ':' && isLetter(c[n-2]) && (n == 2 || c[n-3] == ':') {
			st.reset(true) // C:, -Path:C:, FileSystem::C:, \\?\C:
			continue
		}
		if wasDriveOK && n > 2 && isLetter(c[0]) && c[1] == ':' && c[2] != ':' {
			st.reset(true) // C:Windows, relative to the drive's current directory
			c = c[2:]
		} else if !wasFirst {
			if k := bytes.IndexByte(c, ':'); k > 0 {
				c = c[:k] // an alternate stream: System32::$INDEX_ALLOCATION
			}
		}
		if len(c) == 2 && isLetter(c[0]) && c[1] == '$' {
			st.reset(true) // \\host\C$
			continue
		}
		if eqFold(c, "admin$") {
			st.reset(true)
			st.push(kWin)
			continue
		}
		if hasFold(c, 0, "harddiskvolume") || hasFold(c, 0, "volume{") {
			st.reset(true)
			continue
		}
		if hasFold(c, 0, "%__appdir__%") {
			// cmd's %__APPDIR__% ends with a separator: %__APPDIR__%drivers is System32\drivers.
			st = pathState{rooted: true, depth: 2, k: [2]uint8{kWin, kSys}}
			if c = c[len("%__appdir__%"):]; len(c) == 0 {
				continue
			}
		} else if d, ok := envDir(varName(c)); ok {
			st = d.state()
			continue
		} else if wasFirst && eqFold(c, "~") {
			st = pathState{rooted: true, depth: 2} // the user's home, C:\Users\name
			continue
		}
		if wasAtLead && len(c) == 1 && isLetter(c[0]) && !last {
			continue // /c/… is drive C in Git Bash and MSYS
		}
		if lead && st.depth == 1 && st.k[0]&kMnt != 0 && len(c) == 1 && isLetter(c[0]) {
			st.reset(true) // /mnt/c, /cygdrive/c
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
		if len(bytes.Trim(c, "*")) == 0 {
			k |= kAny
		}
		st.push(k)
		if st.inSystem() {
			return st, true
		}
	}
	return st, st.endHit()
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
