package remote

import (
	"net/http"
	"strings"
)

// checkOrigin refuses, with 403 and before anything else runs, a request whose Origin
// header is not on the allow list (docs/remote.md, "Transport security"). A browser sends Origin
// with every cross-origin POST, so a page on another site, or one reached through a
// rebinding DNS name, cannot drive the server with the user's network position. MCP
// clients that are not browsers send no Origin and pass. "null" is never allowed.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Values("Origin"); len(o) > 0 && !originAllowed(allowed, o) {
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
