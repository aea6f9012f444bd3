package ops

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// Gate is who may read /metrics: the series show the rate budget, the
// calls per tool and outcome and, where the operator opts in, every
// client's name.
type Gate struct {
	// KeySHA256 is the SHA-256 digest of the bearer key a scraper must
	// present (Authorization: Bearer KEY); nil asks for none, for a
	// listener only trusted callers reach.
	KeySHA256 []byte
}

// Wrap serves next behind the gate. A request that arrived at a loopback
// address but names another host is refused with 403 first, as the MCP
// endpoint does: that is a web page whose name was rebound to 127.0.0.1
// reading what only local callers should. Without the key, or with
// another, the answer is 401; the key is compared by digest in constant
// time and never logged.
func (g Gate) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rebound(r) {
			http.Error(w, "forbidden: a loopback listener answers only loopback host names", http.StatusForbidden)
			return
		}
		if g.KeySHA256 != nil && !g.admits(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ghgate metrics"`)
			http.Error(w, "unauthorized: /metrics needs the metrics bearer key", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g Gate) admits(r *http.Request) bool {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(key)))
	return subtle.ConstantTimeCompare(sum[:], g.KeySHA256) == 1
}

// rebound reports whether r reached a loopback address under a host name
// that is not loopback's.
func rebound(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !isLoopback(local.String()) {
		return false
	}
	return !isLoopback(r.Host)
}

// isLoopback reports whether hostport (or a bare host) is localhost or a
// loopback IP.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
