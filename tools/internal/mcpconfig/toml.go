package mcpconfig

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// ParseTOML decodes a Codex config.toml (TOML 1.0, which Codex's own parser reads)
// into plain values: tables are map[string]any, arrays []any, integers int64, floats
// float64, dates and times go-toml's types. A leading UTF-8 byte order mark is skipped,
// as for JSON configs.
//
// Its errors never carry a byte of the document (configs hold tokens): a syntax error
// is reported by line and column only, and a key or table defined twice by that fact
// alone (go-toml names the key in those messages and gives no position).
func ParseTOML(b []byte) (map[string]any, error) {
	doc := map[string]any{}
	err := toml.Unmarshal(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF}), &doc)
	if err == nil {
		return doc, nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return nil, fmt.Errorf("invalid TOML: syntax error at line %d, column %d", line, col)
	}
	if conflict(err.Error()) {
		return nil, errors.New("invalid TOML: a key or table is defined more than once or conflicts with another")
	}
	return nil, errors.New("invalid TOML")
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
