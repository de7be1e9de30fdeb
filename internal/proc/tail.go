package proc

import (
	"sync"
	"unicode/utf8"
)

// tailBuffer keeps only the last limit bytes written to it. It is safe for concurrent
// use because a reader goroutine that outlives settlement may still write while the
// receipt is being assembled.
type tailBuffer struct {
	mu        sync.Mutex
	limit     int
	ring      []byte // len(ring) == limit once allocated
	start     int    // index of the oldest retained byte
	size      int    // retained byte count, <= limit
	truncated bool
}

func newTailBuffer(limit int) *tailBuffer {
	if limit < 0 {
		limit = 0
	}
	return &tailBuffer{limit: limit}
}

// Write never fails: discarding old bytes is the point, and it only marks truncated.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if n == 0 {
		return 0, nil
	}
	if t.limit == 0 {
		t.truncated = true
		return n, nil
	}
	if t.ring == nil {
		t.ring = make([]byte, t.limit)
	}
	if n >= t.limit {
		// Only the last limit bytes of p survive; anything retained before or cut
		// from p is discarded.
		if n > t.limit || t.size > 0 {
			t.truncated = true
		}
		copy(t.ring, p[n-t.limit:])
		t.start, t.size = 0, t.limit
		return n, nil
	}
	if over := t.size + n - t.limit; over > 0 {
		t.truncated = true
		t.start = (t.start + over) % t.limit
		t.size -= over
	}
	end := (t.start + t.size) % t.limit
	c := copy(t.ring[end:], p)
	copy(t.ring, p[c:])
	t.size += n
	return n, nil
}

// Bytes returns a copy of the retained tail, oldest byte first.
func (t *tailBuffer) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]byte, t.size)
	c := copy(out, t.ring[t.start:min(t.start+t.size, len(t.ring))])
	copy(out[c:], t.ring[:t.size-c])
	return out
}

// Truncated reports whether any byte was ever discarded.
func (t *tailBuffer) Truncated() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.truncated
}

// decodeText decodes b as UTF-8, replacing each maximal invalid subpart with U+FFFD
// (the Unicode-recommended practice, which is also what Python's errors="replace"
// does): a multi-byte sequence cut by the tail becomes one U+FFFD per stray byte at
// the front and one U+FFFD for an incomplete sequence at the end. No console code page
// is consulted.
func decodeText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || w > 1 {
			out = append(out, b[i:i+w]...)
			i += w
			continue
		}
		out = utf8.AppendRune(out, utf8.RuneError)
		i += invalidSubpartLen(b[i:])
	}
	return string(out)
}

// invalidSubpartLen is the length of the maximal prefix of b that starts a well-formed
// sequence but does not complete one (at least 1).
func invalidSubpartLen(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF) // allowed range of the second byte
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead == 0xE0:
		need, lo = 2, 0xA0
	case lead >= 0xE1 && lead <= 0xEC, lead == 0xEE, lead == 0xEF:
		need = 2
	case lead == 0xED:
		need, hi = 2, 0x9F
	case lead == 0xF0:
		need, lo = 3, 0x90
	case lead >= 0xF1 && lead <= 0xF3:
		need = 3
	case lead == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		c := b[n]
		if k == 0 && (c < lo || c > hi) || k > 0 && (c < 0x80 || c > 0xBF) {
			break
		}
		n++
	}
	return n
}
