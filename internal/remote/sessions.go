package remote

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// sessionHeader is the Streamable HTTP session header.
const sessionHeader = "Mcp-Session-Id"

// sessions bounds the number of open MCP sessions and closes idle ones
// (docs/remote.md, "Limits"). A new session beyond the bound closes the session
// without a request in flight that was used longest ago (a client that never ends
// its sessions cannot lock others out; the closed one's client gets "session not
// found" and starts a new one, as MCP tells it to); when every session has a request
// in flight, the new one is refused with 503. It learns a session's id from the response that
// created it, counts a request that may create one (a POST without the header) while
// it runs, and closes a session through close once it has had no request in flight
// for idle. Its clock is injected; Sweep runs on every new session and on a ticker.
type sessions struct {
	now   func() time.Time
	max   int
	idle  time.Duration
	close func(id string)

	mu      sync.Mutex
	open    map[string]*sessionState
	pending int // requests that may create a session, still running
}

type sessionState struct {
	last   time.Time
	active int
}

func newSessions(max int, idle time.Duration, now func() time.Time, close func(string)) *sessions {
	return &sessions{now: now, max: max, idle: idle, close: close, open: map[string]*sessionState{}}
}

// Open is the number of sessions counted open.
func (s *sessions) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

// oldestIdle is the session with no request in flight that was used longest ago, ""
// when every session has one in flight. Called with mu held.
func (s *sessions) oldestIdle() string {
	id, last := "", time.Time{}
	for k, st := range s.open {
		if st.active == 0 && (id == "" || st.last.Before(last) || st.last.Equal(last) && k < id) {
			id, last = k, st.last
		}
	}
	return id
}

// Sweep closes the sessions idle for longer than the bound.
func (s *sessions) Sweep() {
	now := s.now()
	var idle []string
	s.mu.Lock()
	for id, st := range s.open {
		if st.active == 0 && now.Sub(st.last) >= s.idle {
			idle = append(idle, id)
			delete(s.open, id)
		}
	}
	s.mu.Unlock()
	for _, id := range idle {
		s.close(id)
	}
}

func (s *sessions) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionHeader)
		if id == "" {
			if r.Method != http.MethodPost {
				next.ServeHTTP(w, r)
				return
			}
			s.Sweep()
			s.mu.Lock()
			var evict string
			if len(s.open)+s.pending >= s.max {
				evict = s.oldestIdle()
				if evict == "" {
					s.mu.Unlock()
					busy(w, fmt.Sprintf("server busy: %d sessions are open and busy, the most this server allows; this request was not started: send it again once one ends", s.max))
					return
				}
				delete(s.open, evict)
			}
			s.pending++
			s.mu.Unlock()
			if evict != "" {
				s.close(evict)
			}
			rw := &recordID{ResponseWriter: w, s: s}
			defer func() {
				s.mu.Lock()
				s.pending--
				s.mu.Unlock()
			}()
			next.ServeHTTP(rw, r)
			return
		}
		// Only a POST is work in flight: a GET is the client's standing stream for
		// server messages, open as long as the session (the go-sdk's own idle timer
		// counts the same way).
		post := r.Method == http.MethodPost
		s.mu.Lock()
		st := s.open[id]
		if st != nil {
			if post {
				st.active++
			}
			st.last = s.now()
		}
		s.mu.Unlock()
		next.ServeHTTP(w, r)
		s.mu.Lock()
		if st != nil {
			if post {
				st.active--
			}
			st.last = s.now()
		}
		if r.Method == http.MethodDelete {
			delete(s.open, id)
		}
		s.mu.Unlock()
	})
}

// recordID notes the session id of a response when its header is written, before
// the client can use it.
type recordID struct {
	http.ResponseWriter
	s    *sessions
	done bool
}

func (rw *recordID) note() {
	if rw.done {
		return
	}
	rw.done = true
	if id := rw.Header().Get(sessionHeader); id != "" {
		rw.s.mu.Lock()
		if rw.s.open[id] == nil {
			rw.s.open[id] = &sessionState{last: rw.s.now()}
		}
		rw.s.mu.Unlock()
	}
}

func (rw *recordID) WriteHeader(code int) { rw.note(); rw.ResponseWriter.WriteHeader(code) }
func (rw *recordID) Write(b []byte) (int, error) {
	rw.note()
	return rw.ResponseWriter.Write(b)
}
func (rw *recordID) Flush() {
	rw.note()
	if f, ok := rw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
func (rw *recordID) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// busy answers a request refused for want of room, as a JSON-RPC error the client can
// show (-32005, like the stdio transport's full queue) with 503.
func busy(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":%q}}`, msg)
}
