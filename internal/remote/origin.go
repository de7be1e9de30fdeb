package remote

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// checkOrigin refuses, with 403 and before anything else runs, a request whose Origin
// header is not on the allow list (docs/remote.md, "Transport security"). A browser sends Origin
// with every cross-origin POST, so a page on another site, or one reached through a
// rebinding DNS name, cannot drive the server with the user's network position. MCP
// clients that are not browsers send no Origin and pass. "null" is never allowed. A
// server on a loopback address also accepts loopback origins (http://localhost:PORT,
// http://127.0.0.1:PORT, http://[::1]:PORT): such a page is served by this machine's
// own software, which the loopback listener trusts anyway.
func checkOrigin(allowed []string, loopback bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Values("Origin"); len(o) > 0 && !originAllowed(allowed, o) && (!loopback || !loopbackOrigin(o)) {
			http.Error(w, "Forbidden: Origin is not allowed (wda serve --allow-origin)", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func originAllowed(allowed, got []string) bool {
	if len(got) != 1 {
		return false
	}
	o := strings.TrimSuffix(got[0], "/")
	for _, a := range allowed {
		if strings.EqualFold(o, strings.TrimSuffix(a, "/")) {
			return true
		}
	}
	return false
}

// loopbackOrigin reports whether the one Origin is http(s) on a loopback host.
func loopbackOrigin(got []string) bool {
	if len(got) != 1 {
		return false
	}
	u, err := url.Parse(got[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" && u.Path != "/" {
		return false
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "0")
	}
	return Loopback(host)
}
