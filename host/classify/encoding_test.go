package classify

import (
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// spaced inserts sep every n characters of s, as a payload wrapped or split by hand.
func spaced(s string, n int, sep string) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s[i:min(i+n, len(s))])
	}
	return b.String()
}

// decoy is harmless text base64-encoded three times over: every layer decodes to more
// base64, so each decoy makes the decoder work through all levels.
func decoy(i int) string {
	return b64(b64(b64(strings.Repeat("nothing to see here, move along "+string(rune('a'+i%26)), 20))))
}

// script hides cmd at the end of a longer script, so that its decoded text is longer
// than what the decoys leave of a shared budget.
func script(cmd string) string {
	return strings.Repeat("Write-Host 'building the project, please wait'\n", 10) + cmd
}

func decoys(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(decoy(i))
		b.WriteByte(' ')
	}
	return b.String()
}

// encodedForbidden are the encodings of issue 22 §1 ("Encodings"), built from the
// forbidden commands: each must be forbidden.
var encodedForbidden = []struct{ cmd, what string }{
	{"echo " + decoys(2) + "; powershell -enc " + enc(script("diskpart")), "decoys before -enc"},
	{"echo " + decoys(2) + "; powershell -EncodedCommand " + enc(script("format C: /q")), "more decoys before -EncodedCommand"},
	{"powershell -enc " + enc(decoys(1)+"; powershell -enc "+enc(script("bcdedit /set testsigning on"))), "decoys inside the payload, before an inner payload"},
	{"iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('" + b64(decoys(2)) + "'))); powershell -e " + enc(script("diskpart")), "decoys in one payload, the command in the next"},
	{`powershell -enc "` + spaced(enc("diskpart"), 8, " ") + `"`, "spaces inside the payload"},
	{`powershell -enc '` + spaced(enc("format C:"), 4, " ") + `'`, "a space every four characters"},
	{"powershell -enc \"" + spaced(enc("diskpart"), 16, "\t") + "\"", "tabs inside the payload"},
	{"powershell -enc \"" + spaced(enc(`Remove-Item -Recurse HKLM:\SOFTWARE\X`), 20, "\r\n") + "\"", "line breaks inside the payload"},
	{`pwsh -ec " ` + spaced(enc("diskpart"), 6, "  ") + ` "`, "blanks around and inside"},
	{`powershell -enc "` + spaced(enc("powershell -enc '"+spaced(enc("diskpart"), 8, " ")+"'"), 8, " ") + `"`, "spaced payload inside a spaced payload"},
	{"cmd /c powershell -enc \u201c" + spaced(enc("diskpart"), 8, " ") + "\u201d", "typographic quotes around a spaced payload"},
}

func TestEncodedForbidden(t *testing.T) {
	t.Parallel()
	for _, c := range encodedForbidden {
		if got, why := Explain(c.cmd); got != tools.Forbidden {
			t.Errorf("%s: Explain(%q) = %s (%s), want forbidden", c.what, clip(c.cmd), got, why)
		}
	}
}

// Spaced base64 of something harmless is only decoded, not forbidden; and a spaced
// run that is not base64 at all changes nothing.
func TestEncodedHarmless(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		`powershell -enc "` + spaced(enc("Get-ChildItem"), 8, " ") + `"`,
		"echo " + decoys(8),
		`git log --format="abcd efgh ijkl mnop qrst"`,
	} {
		if got, why := Explain(cmd); got == tools.Forbidden {
			t.Errorf("Explain(%q) = forbidden (%s)", clip(cmd), why)
		}
	}
}

// The decoder stays linear: however the payloads nest or are spaced, it decodes at
// most decodeFactor times the command's length (plus a constant), and a command over
// that is asked for, not passed.
func TestDecodeBounded(t *testing.T) {
	t.Parallel()
	// Spaced payloads whose every piece is base64 too, three levels deep: the worst
	// shape for the decoder (each level decodes both the joined run and its pieces).
	nest := func(s string) string { return `'` + spaced(b64(s), 12, " ") + `'` }
	worst := nest(nest(nest(strings.Repeat("A", 4000))))
	for _, cmd := range []string{
		worst,
		strings.Repeat(worst+" ", 4),
		"echo " + decoys(40),
		strings.Repeat(enc(strings.Repeat(enc("x"), 50))+" ", 20),
	} {
		st := detectState{limit: decodeLimit(len(cmd))}
		detect(cmd, fold(cmd), 0, &st)
		t.Logf("%d bytes decoded from %d (%.1fx)", st.decoded, len(cmd), float64(st.decoded)/float64(len(cmd)))
		if st.decodeCut || st.decoded > decodeLimit(len(cmd)) {
			t.Errorf("decoded %d bytes of a %d-byte command, over %d", st.decoded, len(cmd), decodeLimit(len(cmd)))
		}
		if st.decoded == 0 {
			t.Errorf("nothing decoded in %q", clip(cmd))
		}
	}
}

// TestEncodedCorpus: the committed seed corpus of FuzzShellDifferential holds every
// command of encodedForbidden (go test -run TestEncodedCorpus -update rewrites it).
func TestEncodedCorpus(t *testing.T) {
	var cmds []string
	for _, c := range encodedForbidden {
		cmds = append(cmds, c.cmd)
	}
	checkCorpus(t, "encoded", cmds, "FuzzShellDifferential")
}

// BenchmarkDecodeWorst: the decoder on the worst shape it knows (TestDecodeBounded),
// at about 60 KB.
func BenchmarkDecodeWorst(b *testing.B) {
	nest := func(s string) string { return `'` + spaced(b64(s), 12, " ") + `'` }
	cmd := nest(nest(nest(strings.Repeat("A", 25<<10))))
	b.SetBytes(int64(len(cmd)))
	for b.Loop() {
		Explain(cmd)
	}
}
