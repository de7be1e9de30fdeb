package classify

import (
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

// MaxCommandBytes is the longest command line the shell classifier analyses in full.
// A longer one gets one pass of the forbidden rules over its raw text (no normalised
// views, no payload decoding) and is otherwise approval-required. No command a person or an agent types is this
// long; a script this size belongs in a file (docs/safety/shell-classifier.md, "Limits").
const MaxCommandBytes = 64 << 10

// Shell classifies one Bash or PowerShell command line.
func Shell(cmd string) tools.Class {
	c, _ := Explain(cmd)
	return c
}

// Explain classifies one Bash or PowerShell command line and says why, in a sentence
// fit for a hook message. The rules, in order (docs/safety/shell-classifier.md):
//  1. longer than MaxCommandBytes: forbidden if a forbidden rule matches its raw text,
//     else approval-required;
//  2. forbidden, if any forbidden rule matches any normalised view of the command or
//     of a base64 payload inside it;
//  3. read-only or reversible only if the whole command is one of the forms the
//     classifier understands completely (and names none of the approval patterns);
//  4. otherwise approval-required.
//
// It reads nothing but cmd: no files, no environment.
func Explain(cmd string) (tools.Class, string) {
	raw := fold(cmd)
	if len(cmd) > MaxCommandBytes {
		// One pass over the raw text keeps everything the old patterns forbade
		// forbidden; the normalised views and payloads are left unread.
		if why := scanView(raw); why != "" {
			return tools.Forbidden, why
		}
		return tools.ApprovalRequired, fmt.Sprintf("the command is %d bytes, longer than the %d bytes the shell classifier analyses", len(cmd), MaxCommandBytes)
	}
	st := detectState{limit: decodeLimit(len(cmd))}
	if why := detect(cmd, raw, 0, &st); why != "" {
		return tools.Forbidden, why
	}
	if st.bashCut {
		return tools.ApprovalRequired, fmt.Sprintf("the command goes past the limits of the shell classifier's bash reading (brace expansion and nested scripts up to %d bytes for this command, %d levels of nesting, %d command names with wildcards)", bashLimit(len(cmd)), maxBashNesting, maxGlobCommands)
	}
	if st.decodeCut {
		return tools.ApprovalRequired, fmt.Sprintf("the base64 payloads in the command decode to more than the %d bytes the shell classifier reads of a %d-byte command", st.limit, len(cmd))
	}
	class, why := understand(cmd)
	if class == tools.ApprovalRequired {
		return class, why
	}
	if w := approvalWords(raw); w != "" {
		return tools.ApprovalRequired, fmt.Sprintf("it contains %q, which needs approval", w)
	}
	return class, why
}

// Dynamic reports whether cmd contains compound, redirecting or substituting shell
// syntax: ; CR LF && || | > < $( @( a backtick, or a lone &. (&& and || are covered by
// & and |.) A command containing any of them is never read-only or reversible.
func Dynamic(cmd string) bool {
	return strings.ContainsAny(cmd, ";\r\n|&<>`") || strings.Contains(cmd, "$(") || strings.Contains(cmd, "@(")
}

const inPayload = " (in a base64-encoded payload)"

// maxDecodeDepth bounds base64 payloads inside base64 payloads.
const maxDecodeDepth = 3

// detectState is what detect carries across the views and payloads of one command.
type detectState struct {
	decoded   int  // bytes of decoded payload text, all levels
	limit     int  // decodeLimit of the command: a safety net the decoder never reaches by design
	decodeCut bool // a payload was left undecoded at the limit
	bashCut   bool // the bash reading was cut short at its limit
}

// detect returns the reason of the first forbidden rule that matches any view of s
// (v is fold(s)), or "". Decoded payloads are classified again, maxDecodeDepth levels
// deep at most. Each payload is decoded on its own: no payload's work can use up
// another's (a decoy placed first cannot hide the payload after it); the depth bound
// keeps the total linear (docs/safety/shell-classifier.md, "Limits").
func detect(s string, v []byte, depth int, st *detectState) string {
	// The raw text, folded: a superset of the old patterns' matches.
	if why := scanView(v); why != "" {
		return why
	}
	// Quotes, joins, carets, backtick escapes and format characters removed.
	lit := unescape(s, false)
	if lit != s {
		v = fold(lit)
		if why := scanView(v); why != "" {
			return why
		}
	}
	// Bash's unquoted backslash escapes (dis\kpart).
	if strings.IndexByte(lit, '\\') >= 0 {
		if why := scanView(dropBackslashes(v)); why != "" {
			return why
		}
	}
	// PowerShell's special backtick escapes (`t is a tab).
	if strings.IndexByte(s, '`') >= 0 {
		if why := scanView(fold(unescape(s, true))); why != "" {
			return why
		}
	}
	// Bash's $'…' escapes (\x64iskpart).
	if strings.Contains(s, "$'") {
		if why := scanView(fold(ansiC(lit))); why != "" {
			return why
		}
	}
	// The words bash would execute (bash.go).
	if bashSyntax(s) {
		view, complete := bashView(s)
		if view != nil {
			if why := scanView(fold(string(view))); why != "" {
				return why
			}
			st.bashCut = st.bashCut || !complete
		}
	}
	if depth >= maxDecodeDepth {
		return ""
	}
	var why string
	decode := func(run string) bool {
		d := decodeBase64(run)
		for _, text := range []string{utf16le(d), string(d)} {
			if len(text) == 0 {
				continue
			}
			if st.decoded+len(text) > st.limit {
				st.decodeCut = true
				continue
			}
			st.decoded += len(text)
			if w := detect(text, fold(text), depth+1, st); w != "" {
				why = w
				if !strings.HasSuffix(w, inPayload) {
					why += inPayload
				}
				return true
			}
		}
		return false
	}
	if spacedRuns(s, decode) || base64Runs(lit, decode) {
		return why
	}
	return ""
}
