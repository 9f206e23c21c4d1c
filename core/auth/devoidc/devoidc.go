// Package devoidc is a local OpenID Connect provider standing in for Google
// in development and tests, built on oauth2-proxy/mockoidc. It issues ID
// tokens with Google's profile claims (given_name, family_name, picture) and
// can answer the next sign-in with an error, as Google redirects back with
// ?error=access_denied and the like.
package devoidc

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"sync"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"
)

// User is an account at the provider.
type User struct {
	Subject       string
	Email         string
	EmailVerified bool
	GivenName     string
	FamilyName    string
	Picture       string
}

// ID implements mockoidc.User.
func (u *User) ID() string { return u.Subject }

type userinfo struct {
	Email         string `json:"email,omitempty"`
	EmailVerified bool   `json:"email_verified,omitempty"`
	GivenName     string `json:"given_name,omitempty"`
	FamilyName    string `json:"family_name,omitempty"`
	Picture       string `json:"picture,omitempty"`
}

func (u *User) scoped(scopes []string) userinfo {
	var info userinfo
	for _, s := range scopes {
		switch s {
		case "email":
			info.Email, info.EmailVerified = u.Email, u.EmailVerified
		case "profile":
			info.GivenName, info.FamilyName, info.Picture = u.GivenName, u.FamilyName, u.Picture
		}
	}
	return info
}

// Userinfo implements mockoidc.User.
func (u *User) Userinfo(scopes []string) ([]byte, error) { return json.Marshal(u.scoped(scopes)) }

type claims struct {
	*mockoidc.IDTokenClaims
	userinfo
}

// Claims implements mockoidc.User.
func (u *User) Claims(scopes []string, base *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	return &claims{IDTokenClaims: base, userinfo: u.scoped(scopes)}, nil
}

// Provider is a running local provider.
type Provider struct {
	*mockoidc.MockOIDC

	mu          sync.Mutex
	defaultUser *User
	failNext    *authorizeError
}

type authorizeError struct{ code, description string }

// Start runs a provider on addr ("127.0.0.1:0" for any free port). Every
// sign-in is answered as user unless a user is queued with QueueUser.
func Start(addr string, user *User) (*Provider, error) {
	return StartWith(addr, user, "", "")
}

// StartWith is Start with a fixed client id and secret (random when empty),
// so a development configuration survives restarts.
func StartWith(addr string, user *User, clientID, clientSecret string) (*Provider, error) {
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		return nil, err
	}
	if clientID != "" {
		m.ClientID = clientID
	}
	if clientSecret != "" {
		m.ClientSecret = clientSecret
	}
	p := &Provider{MockOIDC: m, defaultUser: user}
	if err := m.AddMiddleware(p.authorizeHook); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if err := m.Start(ln, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// FailNextAuthorize makes the next sign-in redirect back with
// ?error=code&error_description=description instead of a code, as Google
// does when the user cancels (access_denied) or the client is misconfigured.
func (p *Provider) FailNextAuthorize(code, description string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failNext = &authorizeError{code, description}
}

func (p *Provider) authorizeHook(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != mockoidc.AuthorizationEndpoint {
			next.ServeHTTP(w, r)
			return
		}
		p.mu.Lock()
		fail := p.failNext
		p.failNext = nil
		if fail == nil && p.defaultUser != nil {
			// mockoidc answers as its own "jane.doe" when nothing is queued.
			p.UserQueue.Lock()
			if len(p.UserQueue.Queue) == 0 {
				p.UserQueue.Queue = append(p.UserQueue.Queue, p.defaultUser)
			}
			p.UserQueue.Unlock()
		}
		p.mu.Unlock()
		if fail == nil {
			next.ServeHTTP(w, r)
			return
		}
		back, err := url.Parse(r.URL.Query().Get("redirect_uri"))
		if err != nil || back.Scheme == "" {
			http.Error(w, "redirect_uri inválido", http.StatusBadRequest)
			return
		}
		q := back.Query()
		q.Set("error", fail.code)
		if fail.description != "" {
			q.Set("error_description", fail.description)
		}
		q.Set("state", r.URL.Query().Get("state"))
		back.RawQuery = q.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
}
