package live

import (
	"crypto/subtle"
	"net/http"
)

// TokenState is what the server makes of a request's token.
type TokenState string

// The token states, as GET /api/live/info answers them.
const (
	TokenOK      TokenState = "ok"      // the request may act
	TokenMissing TokenState = "missing" // it carries none
	TokenWrong   TokenState = "wrong"   // it carries another
)

// Info is GET /api/live/info: whether a page may act, and if not why,
// for it to say so and disable its controls.
type Info struct {
	ReadOnly bool       `json:"readOnly"` // the server refuses every change
	Token    TokenState `json:"token"`    // the request's token
	// CanAct is !ReadOnly && Token == TokenOK.
	CanAct bool `json:"canAct"`
	// Why says, when CanAct is false, why and what to do.
	Why string `json:"why,omitempty"`
}

// tokenState checks r's token against the server's, in constant time.
func (s *server) tokenState(r *http.Request) TokenState {
	got := r.Header.Get(TokenHeader)
	switch {
	case got == "":
		return TokenMissing
	case s.opt.Token != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.opt.Token)) == 1:
		return TokenOK
	}
	return TokenWrong
}

// infoFor is r's Info.
func (s *server) infoFor(r *http.Request) Info {
	in := Info{ReadOnly: s.opt.ReadOnly, Token: s.tokenState(r)}
	switch {
	case in.ReadOnly:
		in.Why = "Read-only: this server was started with --read-only, so nothing here changes the queue."
	case in.Token == TokenMissing:
		in.Why = "Read-only: this page has no token. Open the address wq serve printed at start (it ends in #token=…) to act on the queue."
	case in.Token == TokenWrong:
		in.Why = "Read-only: this page's token is not the server's (was it restarted?). Open the address wq serve printed at start to act on the queue."
	default:
		in.CanAct = true
	}
	return in
}

func (s *server) info(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.infoFor(r))
}

// sameOrigin reports whether r comes from a page of this server, or from
// no page at all (a command-line client, which sends neither header): its
// Origin, when present, is this server's, and its Sec-Fetch-Site, when
// present, is same-origin.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return false
	}
	o := r.Header.Get("Origin")
	return o == "" || o == "http://"+r.Host || o == "https://"+r.Host
}

// mutating wraps a route that changes the queue: it runs only for a
// request of the page's own origin that carries the token, on a server
// not read-only. A refused request is logged, answered 403 with why, and
// changes nothing.
func (s *server) mutating(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		refuse := func(why string) {
			s.logf("refused %s %s from %s: %s", r.Method, r.URL.Path, r.RemoteAddr, why)
			jsonError(w, http.StatusForbidden, why)
		}
		if !sameOrigin(r) {
			refuse("a request from another site's page (Origin " + r.Header.Get("Origin") + ") may not change the queue")
			return
		}
		if in := s.infoFor(r); !in.CanAct {
			refuse(in.Why)
			return
		}
		h(w, r)
	}
}
