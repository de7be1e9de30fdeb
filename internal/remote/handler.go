package remote

import (
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// MetadataPath is where the protected-resource metadata of /mcp is served (RFC 9728
// §3.1 inserts the well-known segment before the resource's path); the bare
// well-known path serves the same document for clients that look there first.
const (
	MetadataPath     = "/.well-known/oauth-protected-resource/mcp"
	MetadataRootPath = "/.well-known/oauth-protected-resource"
)

// Handler serves one mcp.Server over Streamable HTTP at /mcp, behind the checks of
// docs/remote.md in this order: Origin (403), bearer token (401 with the
// WWW-Authenticate challenge; no tool runs), the session bound (503), the body bound
// (413, the SDK's). Its Sweep closes idle sessions; the caller runs it on a ticker.
type Handler struct {
	http.Handler
	sessions *sessions
}

// Options of NewHandler besides the Config.
type Options struct {
	// Tokens are the accepted bearer tokens; nil only with Config.NoAuth.
	Tokens Tokens
	// Now is the clock of idle sessions (nil: time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// NewHandler builds the handler of srv for a checked c (Config.Check).
func NewHandler(srv *mcp.Server, c Config, o Options) *Handler {
	if o.Now == nil {
		o.Now = time.Now
	}
	closeSession := func(id string) {
		for ss := range srv.Sessions() {
			if ss.ID() == id {
				_ = ss.Close()
			}
		}
	}
	ss := newSessions(c.MaxSessions, c.IdleTimeout, o.Now, closeSession)
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: c.MaxBodyBytes, Logger: o.Logger})
	h = ss.wrap(h)
	mux := http.NewServeMux()
	if !c.NoAuth {
		meta := auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
			Resource:               c.PublicURL,
			AuthorizationServers:   c.AuthServers,
			BearerMethodsSupported: []string{"header"},
			ResourceName:           "Windows Dev Agent",
		})
		mux.Handle(MetadataPath, meta)
		mux.Handle(MetadataRootPath, meta)
		h = auth.RequireBearerToken(o.Tokens.Verify, &auth.RequireBearerTokenOptions{
			ResourceMetadataURL: MetadataURL(c.PublicURL),
			// Static tokens carry no expiry: they last until removed from the file.
			AllowMissingExpiration: true,
		})(h)
	}
	mux.Handle("/mcp", checkOrigin(c.Origins, Loopback(c.Addr), h))
	return &Handler{Handler: mux, sessions: ss}
}

// Sweep closes the sessions idle for longer than Config.IdleTimeout.
func (h *Handler) Sweep() { h.sessions.Sweep() }

// MetadataURL is the protected-resource metadata URL of the resource at public.
func MetadataURL(public string) string {
	u, err := url.Parse(public)
	if err != nil {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: MetadataPath}).String()
}
