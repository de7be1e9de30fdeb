// Package tomlread decodes the TOML files tools read from a user's machine or project
// (a Codex config.toml, a project's pyproject.toml) into plain values, by TOML 1.0, the
// version Codex's own parser reads, with github.com/pelletier/go-toml/v2.
//
// Tables become map[string]any, arrays []any, integers int64, floats float64, booleans
// bool, dates and times go-toml's types (time.Time, toml.LocalDate, toml.LocalTime,
// toml.LocalDateTime). A leading UTF-8 byte order mark is skipped.
//
// It must never put a byte of the document into an error: such files hold tokens, so
// an error gives a line and column and a fixed description only
// (docs/safety/project-reads.md).
package tomlread

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Error is why a document was refused: Msg is one of the fixed descriptions below, and
// Line and Column (1-based) say where, when the decoder knows.
type Error struct {
	Line, Column int
	Msg          string
}

// The descriptions an Error carries.
const (
	MsgSyntax   = "syntax error"
	MsgConflict = "a key or table is defined more than once or conflicts with another"
	MsgInvalid  = "unreadable document"
)

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s at line %d, column %d", e.Msg, e.Line, e.Column)
	}
	return e.Msg
}

// Parse decodes b. A refusal is an *Error.
func Parse(b []byte) (map[string]any, error) {
	doc := map[string]any{}
	err := toml.Unmarshal(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF}), &doc)
	if err == nil {
		return doc, nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return nil, &Error{Line: line, Column: col, Msg: MsgSyntax}
	}
	// go-toml's redefinition errors name the key and give no position: only the fact
	// is kept.
	if conflict(err.Error()) {
		return nil, &Error{Msg: MsgConflict}
	}
	return nil, &Error{Msg: MsgInvalid}
}

// conflict recognises go-toml's wording of a redefinition (read, never repeated).
func conflict(msg string) bool {
	for _, w := range []string{"already", "cannot redefine", "to be a table", "should be a table", "should be an array table"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
