package classify

import "bytes"

// Readers of what follows a forbidden word (docs/safety/shell-classifier.md,
// "Forbidden rules"). Each reads a bounded window after its word, or a run of
// arguments that no other occurrence of the word reads again, so a scan stays linear
// in the length of the view.

// formatRun remembers the last run of switches read after a format word: a format
// word inside that run (a switch named /format) ends at the same place, so the run is
// read once.
type formatRun struct {
	end            int  // index of the first token after the run (0: none read yet)
	drive, varForm bool // that token is a drive or a volume path; a variable holding a drive
}

// formatsDrive reads what follows the word format (v[i:end]): an optional
// .com/.exe/.bat/.cmd, white space or a switch, any number of switches, then a drive
// (C:) or a volume path (\\?\…, \\.\…). When format is not an option's name (--format,
// -Format), a variable naming the system drive (%SystemDrive%, $env:HOMEDRIVE) or a
// variable followed by a colon (a for-loop's %d:, %%d:, $d:) counts as a drive too.
func (st *scanState) formatsDrive(v []byte, i, end int) bool {
	j := extEnd(v, end)
	if j >= len(v) || !isSpace(v[j]) && v[j] != '/' {
		return false // cmd reads format/q C: as format /q C:
	}
	if j >= st.run.end {
		for {
			for j < len(v) && isSpace(v[j]) {
				j++
			}
			if j >= len(v) || v[j] != '/' && v[j] != '-' {
				break
			}
			for j < len(v) && !isSpace(v[j]) {
				j++
			}
		}
		st.run = formatRun{end: j, drive: driveAt(v, j), varForm: varDriveAt(v, j)}
	}
	option := i > 0 && v[i-1] == '-'
	return st.run.drive || !option && st.run.varForm
}

// driveAt: a drive letter and a colon, or a device path, at v[j].
func driveAt(v []byte, j int) bool {
	if j+1 < len(v) && isLetter(v[j]) && v[j+1] == ':' {
		return true
	}
	return hasFold(v, j, `\\?\`) || hasFold(v, j, `\\.\`)
}

// varDriveAt: at v[j] (after an optional quote) a variable token ($…, %…, !…) that
// holds a colon (%d:, %%d:, ${d}:, $env:SystemDrive) or names a variable whose value is
// a drive (%SystemDrive%, !HOMEDRIVE!).
func varDriveAt(v []byte, j int) bool {
	if j < len(v) && (v[j] == '"' || v[j] == '\'') {
		j++
	}
	if j >= len(v) || v[j] != '$' && v[j] != '%' && v[j] != '!' {
		return false
	}
	k := j + 1
	for k < len(v) && !isSpace(v[k]) && v[k] != '"' && v[k] != '\'' {
		k++
	}
	tok := v[j:k]
	if bytes.IndexByte(tok[1:], ':') >= 0 {
		return true
	}
	for len(tok) > 0 && isSep(tok[len(tok)-1]) {
		tok = tok[:len(tok)-1]
	}
	d, ok := envDir(varName(tok))
	return ok && d.depth == 0
}

// formatMethod: the word format as a method or a method name (-MethodName Format,
// call format, .Format(…)), not an option (--format, /format:csv), a cmdlet
// (Format-Table) or a file name (format.txt).
func formatMethod(v []byte, i, end int) bool {
	if i > 0 && (v[i-1] == '-' || v[i-1] == '/') {
		return false
	}
	return end == len(v) || v[end] != '-' && v[end] != '.' && v[end] != ':'
}

// extEnd skips an executable extension (.com .exe .bat .cmd) at j.
func extEnd(v []byte, j int) int {
	if j+4 <= len(v) && v[j] == '.' && (hasFold(v, j, ".com") || hasFold(v, j, ".exe") || hasFold(v, j, ".bat") || hasFold(v, j, ".cmd")) &&
		(j+4 == len(v) || !isWord(v[j+4])) {
		return j + 4
	}
	return j
}

// skipPunct skips at most limit bytes of the punctuation between a member and its
// argument: brackets, parentheses, colons, quotes, commas, white space.
func skipPunct(v []byte, j, limit int) int {
	for n := 0; j < len(v) && n < limit; n++ {
		switch v[j] {
		case '(', ')', '[', ']', ':', '\'', '"', ',', ' ', '\t':
			j++
			continue
		}
		break
	}
	return j
}

// folderValueFollows: after GetFolderPath or SpecialFolder, within a few bytes of
// punctuation, one of the special folders that are system places: System (37),
// SystemX86 (41), Windows (36), by name or number (decimal or hex).
func folderValueFollows(v []byte, j int) bool {
	j = skipPunct(v, j, 16)
	if j >= len(v) || j > 0 && isWord(v[j-1]) {
		return false
	}
	for _, w := range [...]string{"system", "systemx86", "windows", "36", "37", "41", "0x24", "0x25", "0x29"} {
		if wordAt(v, j, w) {
			return true
		}
	}
	return false
}

// envValueFollows: after GetEnvironmentVariable, the name of a variable whose value is
// itself a protected place (windir, SystemRoot, SystemDrive, ComSpec …).
func envValueFollows(v []byte, j int) bool {
	j = skipPunct(v, j, 16)
	k := j
	for k < len(v) && k-j < 32 && isWord(v[k]) {
		k++
	}
	if d, ok := envDir(v[j:k]); ok {
		st := d.state()
		return st.endHit()
	}
	return false
}

// hiveNameFollows: after [Microsoft.Win32.Registry], [RegistryHive] or OpenBaseKey(,
// the .NET name of a protected hive: LocalMachine, ClassesRoot, CurrentConfig.
func hiveNameFollows(v []byte, j int) bool {
	j = skipPunct(v, j, 8)
	if j > 0 && j < len(v) && isWord(v[j-1]) {
		return false
	}
	return wordAt(v, j, "localmachine") || wordAt(v, j, "classesroot") || wordAt(v, j, "currentconfig")
}

// number records the registry hive numbers of WMI's StdRegProv (hDefKey) and .NET's
// RegistryHive at v[i], a word boundary: HKCR, HKLM and HKCC (2147483648, 2147483650,
// 2147483653, in hex 0x80000000, 0x80000002, 0x80000005; as RegistryHive's signed
// values -2147483648, -2147483646, -2147483643), and the other hives.
func (st *scanState) number(v []byte, i int) {
	neg := i > 0 && v[i-1] == '-'
	for _, w := range [...]string{"2147483648", "2147483650", "2147483653", "0x80000000", "0x80000002", "0x80000005"} {
		if wordAt(v, i, w) {
			st.hiveNum = true
			return
		}
	}
	if neg && (wordAt(v, i, "2147483646") || wordAt(v, i, "2147483643")) {
		st.hiveNum = true
		return
	}
	for _, w := range [...]string{"2147483649", "2147483651", "0x80000001", "0x80000003"} {
		if wordAt(v, i, w) {
			st.otherHv = true
			return
		}
	}
	if neg && (wordAt(v, i, "2147483647") || wordAt(v, i, "2147483645")) {
		st.otherHv = true
	}
}

// regRemovalEntry: a .reg file's key removal, [-HKEY_LOCAL_MACHINE\…] (or another
// protected hive), at v[i] == '['.
func regRemovalEntry(v []byte, i int) bool {
	if i+2 >= len(v) || v[i+1] != '-' {
		return false
	}
	for _, w := range forbiddenWords['h'-'a'] {
		if wordAt(v, i+2, w.s) {
			return true
		}
	}
	return false
}

// regValueRemoval: a .reg file's value removal, "name"=- or @=-, at v[i] == '='.
func regValueRemoval(v []byte, i int) bool {
	if i == 0 || v[i-1] != '"' && v[i-1] != '@' || i+1 >= len(v) || v[i+1] != '-' {
		return false
	}
	return i+2 == len(v) || !isWord(v[i+2]) && v[i+2] != '-'
}

// bcdCmdletVerbs are the verbs of the BCD cmdlets (Set-BcdElement, Remove-BcdEntry,
// Import-BcdStore …) that change the boot configuration; Get- and Export- only read it.
var bcdCmdletVerbs = [...]string{"set", "remove", "new", "copy", "import", "enable", "disable", "add", "clear",
	"reset", "update", "restore", "rename", "move", "edit", "install", "uninstall", "register", "unregister", "mount"}

// bcdCmdletAt: at v[i] == '-', "-Bcd" and a noun, after one of bcdCmdletVerbs that
// starts at a word boundary.
func bcdCmdletAt(v []byte, i int) bool {
	if !hasFold(v, i, "-bcd") || i+4 >= len(v) || !isLetter(v[i+4]) {
		return false
	}
	s := i
	for s > 0 && i-s < 12 && isLetter(v[s-1]) {
		s--
	}
	if s == i || s > 0 && isWord(v[s-1]) {
		return false
	}
	for _, w := range bcdCmdletVerbs {
		if eqFold(v[s:i], w) {
			return true
		}
	}
	return false
}

// rawDeviceAt: at v[j] (after an optional quote) a raw disk or volume device:
// \\.\PhysicalDriveN, \\.\HarddiskN…, \\.\X:, \\?\Volume{…}, the NT forms through
// GLOBALROOT\Device, and Linux's block devices (/dev/sda, /dev/nvme0n1 …).
func rawDeviceAt(v []byte, j int) bool {
	if j < len(v) && (v[j] == '"' || v[j] == '\'') {
		j++
	}
	if hasFold(v, j, "/dev/") {
		return blockDevice(v, j+5)
	}
	if !devicePrefixAt(v, j) {
		return false
	}
	j += 4
	for _, dir := range [...]string{"globalroot", "device"} {
		if hasFold(v, j, dir) && j+len(dir) < len(v) && isSep(v[j+len(dir)]) {
			j += len(dir) + 1
		}
	}
	if hasFold(v, j, "physicaldrive") || hasFold(v, j, "harddisk") || hasFold(v, j, "volume{") {
		return true
	}
	if j+1 >= len(v) || !isLetter(v[j]) || v[j+1] != ':' {
		return false
	}
	// \\.\D: is the volume; \\.\D:\file is a file on it.
	k := j + 2
	if k < len(v) && isSep(v[k]) {
		k++
	}
	return k == len(v) || !isWord(v[k]) && v[k] != '.'
}

// devicePrefixAt: \\.\, \\?\ (or with forward slashes) or \??\ at v[j].
func devicePrefixAt(v []byte, j int) bool {
	for _, p := range [...]string{`\\.\`, `\\?\`, `//./`, `//?/`, `\??\`} {
		if hasFold(v, j, p) {
			return true
		}
	}
	return false
}

// blockDevice: a Linux or macOS whole-disk or partition device name at v[j]
// (sdX, hdX, vdX, xvdX, nvmeN, mmcblkN, diskN, rdiskN, disk/by-…).
func blockDevice(v []byte, j int) bool {
	next := func(k int) byte {
		if k < len(v) {
			return lc(v[k])
		}
		return 0
	}
	letter := func(k int) bool { c := next(k); return 'a' <= c && c <= 'z' }
	digit := func(k int) bool { c := next(k); return '0' <= c && c <= '9' }
	switch {
	case hasFold(v, j, "sd"), hasFold(v, j, "hd"), hasFold(v, j, "vd"):
		return letter(j + 2)
	case hasFold(v, j, "xvd"):
		return letter(j + 3)
	case hasFold(v, j, "nvme"):
		return digit(j + 4)
	case hasFold(v, j, "mmcblk"):
		return digit(j + 6)
	case hasFold(v, j, "rdisk"):
		return digit(j + 5)
	case hasFold(v, j, "disk"):
		return digit(j+4) || next(j+4) == '/'
	}
	return false
}

// isSwitch: /NAME or /NAME:value (/LOG:C:\x.log), not a path (/c/Windows).
func isSwitch(tok []byte) bool {
	k := bytes.IndexAny(tok[1:], `/\:`)
	return k < 0 || tok[1+k] == ':'
}

// isCmdSep: the bytes that end a simple command in bash, cmd and PowerShell.
func isCmdSep(c byte) bool { return c == ';' || c == '&' || c == '|' || c == '\n' || c == '\r' }

// isArgSep separates robocopy's arguments however they are carried: white space,
// quotes, and the commas and parentheses of a PowerShell argument list.
func isArgSep(c byte) bool {
	return isSpace(c) || c == '"' || c == '\'' || c == ',' || c == '(' || c == ')' || c == '@'
}

// robocopy reads robocopy's arguments from v[j] to the end of the simple command: with
// /MIR or /PURGE (which delete whatever the source lacks) a protected destination is
// forbidden, and with /MOV or /MOVE (which delete the source) a protected source. The
// destination is any positional argument after the first (file names, which follow
// it, are never protected places); the names after /XD, /XF and /IF are filters. A
// robocopy word inside a run already read is not read again.
func (st *scanState) robocopy(v []byte, j int) bool {
	if j < st.robocopyEnd {
		return false
	}
	var mirror, move, filters, src, dst bool
	pos := 0
	for j < len(v) && !isCmdSep(v[j]) {
		if isArgSep(v[j]) {
			j++
			continue
		}
		k := j
		for k < len(v) && !isArgSep(v[k]) && !isCmdSep(v[k]) {
			k++
		}
		tok := v[j:k]
		j = k
		if len(tok) > 2 && tok[0] == '/' && tok[1] == '/' {
			tok = tok[1:] // Git Bash users double the slash (//MIR) against MSYS's path conversion
		}
		if tok[0] == '-' || tok[0] == '/' && isSwitch(tok) {
			mirror = mirror || eqFold(tok, "/mir") || eqFold(tok, "/purge")
			move = move || eqFold(tok, "/mov") || eqFold(tok, "/move")
			filters = eqFold(tok, "/xd") || eqFold(tok, "/xf") || eqFold(tok, "/if")
			continue
		}
		if filters {
			continue
		}
		_, hit := walkPath(tok, pathState{})
		if pos == 0 {
			src = hit
		} else if hit {
			dst = true
		}
		pos++
	}
	st.robocopyEnd = j
	return mirror && dst || move && src
}
