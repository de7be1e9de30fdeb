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
	budget := 2*len(cmd) + 1024 // decoded payloads share it: linear in len(cmd)
	if why := detect(cmd, raw, 0, &budget); why != "" {
		return tools.Forbidden, why
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

// detect returns the reason of the first forbidden rule that matches any view of s
// (v is fold(s)), or "". Decoded payloads are classified again, depth levels deep at
// most, while the shared budget of decoded bytes lasts.
func detect(s string, v []byte, depth int, budget *int) string {
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
	if depth >= maxDecodeDepth {
		return ""
	}
	var why string
	base64Runs(lit, func(run string) bool {
		d := decodeBase64(run)
		for _, text := range []string{utf16le(d), string(d)} {
			if len(text) == 0 || len(text) > *budget {
				continue
			}
			*budget -= len(text)
			if w := detect(text, fold(text), depth+1, budget); w != "" {
				why = w
				if !strings.HasSuffix(w, inPayload) {
					why += inPayload
				}
				return true
			}
		}
		return false
	})
	return why
}
