package remote

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// MinTokenLen is the shortest token accepted: 32 characters of the bearer token
// alphabet carry well over 128 bits when generated at random (docs/remote.md).
const MinTokenLen = 32

// maxTokenFile bounds the token file read.
const maxTokenFile = 64 << 10

// Token is one named static bearer token. The name is what audit records and logs
// show; the secret never leaves this package.
type Token struct {
	Name string
	sum  [sha256.Size]byte
}

// Tokens are the tokens the server accepts.
type Tokens []Token

// ParseTokens reads "NAME TOKEN" lines; blank lines and lines starting with # are
// skipped. A name is 1 to 64 letters, digits, '.', '_' or '-'; a token is at least
// MinTokenLen characters of RFC 6750's token alphabet. Duplicate names or tokens,
// and any other line, are refused with its line number (never its text: it may
// hold a secret).
func ParseTokens(data []byte) (Tokens, error) {
	var ts Tokens
	names := map[string]bool{}
	sums := map[[sha256.Size]byte]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 4096), maxTokenFile)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case len(f) != 2:
			return nil, fmt.Errorf("token file line %d: want NAME TOKEN", n)
		case !tokenName(f[0]):
			return nil, fmt.Errorf("token file line %d: name must be 1 to 64 letters, digits, '.', '_' or '-'", n)
		case len(f[1]) < MinTokenLen || !b64token(f[1]):
			return nil, fmt.Errorf("token file line %d (%s): token must be at least %d characters of A-Z a-z 0-9 - . _ ~ + / (then any '=')", n, f[0], MinTokenLen)
		case names[f[0]]:
			return nil, fmt.Errorf("token file line %d: name %s appears twice", n, f[0])
		}
		sum := sha256.Sum256([]byte(f[1]))
		if sums[sum] {
			return nil, fmt.Errorf("token file line %d (%s): the same token is given twice", n, f[0])
		}
		names[f[0]], sums[sum] = true, true
		ts = append(ts, Token{Name: f[0], sum: sum})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("token file: %v", err)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("token file: no tokens")
	}
	return ts, nil
}

func tokenName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !alnum(c) && strings.IndexByte("._-", c) < 0 {
			return false
		}
	}
	return true
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// b64token is RFC 6750's b64token: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
func b64token(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for _, c := range []byte(body) {
		if !alnum(c) && strings.IndexByte("-._~+/", c) < 0 {
			return false
		}
	}
	return true
}

// LoadTokenFile opens path once and, on that handle, refuses anything but a regular
// file that only its owner (and on Windows SYSTEM and Administrators) can read, then
// parses it. The check and the read use the same handle (no check-then-use).
func LoadTokenFile(path string) (Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--token-file: %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("--token-file: %v", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("--token-file: %s is not a regular file", path)
	}
	if err := private(f, fi); err != nil {
		return nil, fmt.Errorf("--token-file: %s: %v", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return nil, fmt.Errorf("--token-file: %v", err)
	}
	if len(data) > maxTokenFile {
		return nil, fmt.Errorf("--token-file: %s is larger than %d bytes", path, maxTokenFile)
	}
	ts, err := ParseTokens(data)
	if err != nil {
		return nil, fmt.Errorf("--token-file: %s: %v", path, err)
	}
	return ts, nil
}

// Verify is the go-sdk TokenVerifier of the static tokens: the token's name is the
// TokenInfo's UserID, which the SDK also uses to keep a session to the token that
// opened it. Every token is compared, in constant time over its hash, so neither the
// time nor the position of a match tells anything about the others.
func (ts Tokens) Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	sum := sha256.Sum256([]byte(token))
	name := ""
	for _, t := range ts {
		if subtle.ConstantTimeCompare(sum[:], t.sum[:]) == 1 {
			name = t.Name
		}
	}
	if name == "" {
		return nil, fmt.Errorf("%w: the bearer token is not one of this server's tokens", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: name}, nil
}
