package catalog_test

import (
	"bytes"
	"encoding/json"
)

// jsonMarshal marshals without HTML escaping so the reloaded text is byte-faithful.
func jsonMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
