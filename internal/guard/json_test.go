package guard

import (
	"fmt"
	"strings"
	"testing"
)

// fmtSscanf reads the line and column out of a DecodeObject error.
func fmtSscanf(s string, line, col *int) (int, error) {
	i := strings.LastIndex(s, " at line ")
	if i < 0 {
		return 0, nil
	}
	return fmt.Sscanf(s[i:], " at line %d, column %d", line, col)
}

// TestDecodeErrorsNeverEchoContent: a file named as a config that is not JSON (the
// shadow file given as config_path) or is broken JSON around a secret is reported by
// position only (issue 15, item 11: `'r'` was echoed before).
func TestDecodeErrorsNeverEchoContent(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"root:$6$S3CR3T$hash:19000:0:99999:7:::\n", "invalid JSON: syntax error at line 1, column 1"},
		{"{\"token\": \"S3CR3T\",\n \"k\": S3CR3T}", "invalid JSON: syntax error at line 2, column 7"},
		{"{\"token\": \"S3CR3T\",}", "invalid JSON: syntax error at line 1, column 20"},
		{"{\"token\": \"S3CR3T", "invalid JSON: unexpected end of input at line 1, column 18"},
		{"{\"a\": 1}\n  S3CR3T", "invalid JSON: data after the top-level value at line 2, column 3"},
		{"{\"é\": ü}", "invalid JSON: syntax error at line 1, column 7"},
	}
	for _, tt := range tests {
		_, err := DecodeObject([]byte(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("DecodeObject(%q) = %v, want %q", tt.in, err, tt.want)
		}
		if err != nil && (strings.Contains(err.Error(), "S3CR3T") || strings.Contains(err.Error(), "'")) {
			t.Errorf("error quotes the input: %v", err)
		}
	}
}
