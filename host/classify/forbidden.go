package classify

// The forbidden rules (docs/safety/shell-classifier.md, "Forbidden rules"). They are
// matched anywhere in every view of the command, whatever command carries them (a
// string handed to iex, an argument of Start-Process, wsl -- …), so a disguise has to
// defeat every view at once. This file holds the word table and the scan; the readers
// of what follows a word are in forbidden_args.go, the path resolver in
// forbidden_paths.go.

// Reasons of the forbidden rules, shown in hook messages.
const (
	reasonDiskpart   = "diskpart (disk partitioning) is forbidden"
	reasonBcdedit    = "bcdedit (boot configuration) is forbidden"
	reasonBoot       = "changing the boot files, the boot code or the boot configuration is forbidden"
	reasonFormat     = "formatting a drive is forbidden"
	reasonDiskCmdlet = "erasing, partitioning or re-partitioning a disk, partition or volume is forbidden"
	reasonRawDisk    = "writing to a raw disk or volume device is forbidden"
	reasonCipher     = "cipher /w (wiping a drive's free space) is forbidden"
	reasonRegistry   = "removing, moving or clearing keys or values of HKLM (or of HKCR or HKCC, which show parts of it) is forbidden"
	reasonSystemPath = "removing, moving or clearing the Windows directory, its system directories or a whole drive is forbidden"
)

type wordKind uint8

const (
	wDiskpart wordKind = iota + 1
	wBcdedit
	wBoot       // bcdboot, bootsect
	wFormat     // format[.com|.exe] followed by a drive; a Format method of a volume
	wDiskCmdlet // Format-Volume, Clear-Disk, the partition and disk cmdlets
	wCipher     // cipher, then a /w switch later on
	wVerb       // removes, moves, renames or clears its target
	wContent    // clears a file's contents (Clear-Content): system paths only
	wRegVerb    // removes a registry key or value (.NET, WMI): registry only
	wRegistry   // a protected registry hive
	wRegDotNet  // [Registry]::, [RegistryHive]::, OpenBaseKey: a hive name may follow
	wStdRegProv // WMI's registry class, whose default hive is HKLM
	wSysDir     // the system directory named by a word
	wFolderPath // GetFolderPath / SpecialFolder, protected with System, SystemX86, Windows
	wEnvVar     // GetEnvironmentVariable, protected with windir, SystemRoot …
	wRobocopy   // robocopy, protected with /MIR or /PURGE onto a protected place
	wOf         // dd's of= onto a raw device
	wWmic       // wmic: its alias "volume" is Win32_Volume
	wVolumeWord // volume (after wmic)
	wVolume     // Win32_Volume, MSFT_Volume: their Format method formats
	wMbr2gpt    // mbr2gpt, then /convert
	wConvert    // convert (after mbr2gpt, as a switch)
)

type ruleWord struct {
	s    string // lower case; may contain '-', '_' and digits
	kind wordKind
}

// forbiddenWords, indexed by first letter, are matched at word boundaries, without
// regard to case. The verbs are PowerShell's removal, move, rename and clear cmdlets
// with their aliases, cmd's and bash's, .NET's Delete and reg delete.
var forbiddenWords = [26][]ruleWord{
	'b' - 'a': {{"bcdedit", wBcdedit}, {"bcdboot", wBoot}, {"bootsect", wBoot}},
	'c' - 'a': {{"cipher", wCipher}, {"clear-disk", wDiskCmdlet},
		{"clear-item", wVerb}, {"cli", wVerb}, {"clear-itemproperty", wVerb}, {"clp", wVerb},
		{"clear-content", wContent}, {"clc", wContent}, {"convert", wConvert}},
	'd' - 'a': {{"diskpart", wDiskpart}, {"del", wVerb}, {"deltree", wVerb}, {"delete", wVerb},
		{"deletesubkeytree", wRegVerb}, {"deletesubkey", wRegVerb}, {"deletevalue", wRegVerb}, {"deletekey", wRegVerb}},
	'e' - 'a': {{"erase", wVerb}},
	'f' - 'a': {{"format", wFormat}, {"format-volume", wDiskCmdlet}},
	'g' - 'a': {{"getfolderpath", wFolderPath}, {"getenvironmentvariable", wEnvVar}},
	'h' - 'a': {{"hklm", wRegistry}, {"hkey_local_machine", wRegistry}, {"hkcr", wRegistry},
		{"hkey_classes_root", wRegistry}, {"hkcc", wRegistry}, {"hkey_current_config", wRegistry}},
	'i' - 'a': {{"initialize-disk", wDiskCmdlet}},
	'm' - 'a': {{"move-item", wVerb}, {"mi", wVerb}, {"mv", wVerb}, {"move", wVerb},
		{"mbr2gpt", wMbr2gpt}, {"msft_volume", wVolume}},
	'n' - 'a': {{"new-partition", wDiskCmdlet}},
	'o' - 'a': {{"of", wOf}, {"openbasekey", wRegDotNet}, {"openremotebasekey", wRegDotNet}},
	'r' - 'a': {{"remove-partition", wDiskCmdlet}, {"remove-item", wVerb}, {"ri", wVerb},
		{"rm", wVerb}, {"rmdir", wVerb}, {"rd", wVerb}, {"remove-itemproperty", wVerb}, {"rp", wVerb},
		{"rename-item", wVerb}, {"rni", wVerb}, {"ren", wVerb}, {"rename", wVerb},
		{"resize-partition", wDiskCmdlet}, {"reset-physicaldisk", wDiskCmdlet}, {"remove-virtualdisk", wDiskCmdlet},
		{"remove-storagepool", wDiskCmdlet}, {"registry", wRegDotNet}, {"registryhive", wRegDotNet}, {"robocopy", wRobocopy}},
	's' - 'a': {{"shred", wVerb}, {"sdelete", wVerb}, {"sdelete64", wVerb}, {"systemdirectory", wSysDir},
		{"set-partition", wDiskCmdlet}, {"set-disk", wDiskCmdlet}, {"specialfolder", wFolderPath}, {"stdregprov", wStdRegProv}},
	'u' - 'a': {{"unlink", wVerb}},
	'v' - 'a': {{"volume", wVolumeWord}},
	'w' - 'a': {{"win32_volume", wVolume}, {"wmic", wWmic}},
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
	if i < 0 || len(v)-i < len(s) {
		return false
	}
	for k := 0; k < len(s); k++ {
		if lc(v[i+k]) != s[k] {
			return false
		}
	}
	return true
}

// scanState is what one scan of a view has seen so far: the halves of the rules that
// need two things anywhere in the command, and the ends of the argument runs already
// read (so a word repeated inside a run does not read the run again: linear time).
type scanState struct {
	verb, content, regVerb                bool // removal verbs: any target, files, registry
	registry, sysPath                     bool // protected places named by words
	stdRegProv, regOpen, hiveNum, otherHv bool // WMI and .NET registry access, hive numbers
	cipher, wmic, volume, formatCall      bool
	mbr2gpt                               bool
	cipherEnd                             int // where the last cipher[.exe] word ends: cmd reads cipher/w: too
	run                                   formatRun
	robocopyEnd                           int
}

// scanView applies every forbidden rule to one folded view and returns the reason of
// the first that matches, or "".
func scanView(v []byte) string {
	st := scanState{cipherEnd: -1}
	for i := 0; i < len(v); i++ {
		c := lc(v[i])
		if why := st.atByte(v, i, c); why != "" {
			return why
		}
		if i > 0 && isWord(v[i-1]) {
			continue
		}
		if '0' <= c && c <= '9' {
			st.number(v, i)
			continue
		}
		if c < 'a' || c > 'z' {
			continue
		}
		for k := range forbiddenWords[c-'a'] {
			w := &forbiddenWords[c-'a'][k]
			if !wordAt(v, i, w.s) {
				continue
			}
			if why := st.word(v, i, w); why != "" {
				return why
			}
		}
	}
	return st.finish(v)
}

// atByte applies the rules that are not words: the unbounded targets of the old rule,
// cipher's /w, a .reg removal entry, a -Bcd cmdlet, a redirection onto a raw device.
func (st *scanState) atByte(v []byte, i int, c byte) string {
	switch c {
	case 'h':
		if hasFold(v, i, "hklm:") {
			st.registry = true
		}
	case 'c':
		if hasFold(v, i, `c:\windows\system32`) {
			st.sysPath = true
		}
	case '/', '-':
		if st.cipher && i > 0 && (isSpace(v[i-1]) || i == st.cipherEnd) && i+1 < len(v) && lc(v[i+1]) == 'w' &&
			(i+2 == len(v) || v[i+2] == ':' || isSpace(v[i+2])) {
			return reasonCipher
		}
		if c == '-' && bcdCmdletAt(v, i) {
			return reasonBoot
		}
	case '[':
		if regRemovalEntry(v, i) {
			return reasonRegistry
		}
	case '=':
		if regValueRemoval(v, i) {
			st.regVerb = true
		}
	case '>':
		j := i + 1
		if j < len(v) && (v[j] == '>' || v[j] == '|') {
			j++
		}
		for j < len(v) && isSpace(v[j]) {
			j++
		}
		if rawDeviceAt(v, j) {
			return reasonRawDisk
		}
	}
	return ""
}

// word applies the rule of one forbidden word w found at v[i].
func (st *scanState) word(v []byte, i int, w *ruleWord) string {
	end := i + len(w.s)
	switch w.kind {
	case wDiskpart:
		return reasonDiskpart
	case wBcdedit:
		return reasonBcdedit
	case wBoot:
		return reasonBoot
	case wDiskCmdlet:
		return reasonDiskCmdlet
	case wFormat:
		if st.formatsDrive(v, i, end) {
			return reasonFormat
		}
		if formatMethod(v, i, end) {
			st.formatCall = true
		}
	case wCipher:
		st.cipher, st.cipherEnd = true, extEnd(v, end)
	case wVerb:
		st.verb = true
	case wContent:
		st.content = true
	case wRegVerb:
		st.regVerb = true
	case wRegistry:
		st.registry = true
	case wRegDotNet:
		st.regOpen = true
		if hiveNameFollows(v, end) {
			st.registry = true
		}
	case wStdRegProv:
		st.stdRegProv = true
	case wSysDir:
		st.sysPath = true
	case wFolderPath:
		if folderValueFollows(v, end) {
			st.sysPath = true
		}
	case wEnvVar:
		if envValueFollows(v, end) {
			st.sysPath = true
		}
	case wRobocopy:
		if st.robocopy(v, extEnd(v, end)) {
			return reasonSystemPath
		}
	case wOf:
		if end < len(v) && v[end] == '=' && rawDeviceAt(v, end+1) {
			return reasonRawDisk
		}
	case wWmic:
		st.wmic = true
	case wVolumeWord:
		if st.wmic {
			st.volume = true
		}
	case wVolume:
		st.volume = true
	case wMbr2gpt:
		st.mbr2gpt = true
	case wConvert:
		if st.mbr2gpt && i > 0 && (v[i-1] == '/' || v[i-1] == '-') {
			return reasonDiskCmdlet
		}
	}
	return ""
}

// finish applies the rules whose halves may come in either order.
func (st *scanState) finish(v []byte) string {
	switch {
	case st.volume && st.formatCall:
		return reasonFormat
	case st.regVerb && st.stdRegProv && (st.hiveNum || !st.otherHv),
		st.regVerb && st.regOpen && st.hiveNum,
		(st.verb || st.regVerb) && st.registry:
		return reasonRegistry
	case (st.verb || st.content) && (st.sysPath || protectedPath(v)):
		return reasonSystemPath
	}
	return ""
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
