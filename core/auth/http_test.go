package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
)

type mailboxBody struct {
	Messages []struct {
		To      string    `json:"to"`
		Subject string    `json:"subject"`
		Text    string    `json:"text"`
		HTML    string    `json:"html"`
		Links   []string  `json:"links"`
		Created time.Time `json:"created_at"`
	} `json:"messages"`
}

// mailedToken reads the newest link to path mailed to email from the dev mailbox API.
// Requests only queue their email, and the server's background loop sends it
// moments later, so the mailbox is read until the link shows up.
func mailedToken(t *testing.T, srv *apptest.Server, email, path string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := srv.Client(t).Do("GET", "/api/dev/mailbox?to="+url.QueryEscape(email), nil)
		if res.Status != http.StatusOK {
			t.Fatalf("mailbox: %d %s", res.Status, res.Body)
		}
		var box mailboxBody
		res.JSON(t, &box)
		for _, m := range box.Messages {
			for _, l := range m.Links {
				if strings.HasPrefix(l, srv.App.Config.PublicURL+path+"?token=") {
					u, _ := url.Parse(l)
					return u.Query().Get("token")
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s link for %s in %s", path, email, res.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func cookieFrom(res apptest.Response, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func message(t *testing.T, res apptest.Response) string {
	t.Helper()
	var m struct{ Message string }
	res.JSON(t, &m)
	return m.Message
}

func TestHTTPSignupConfirmLoginSession(t *testing.T) {
	srv := apptest.Start(t, nil)
	c := srv.Client(t)
	signup := map[string]string{"first_name": "Bia", "last_name": "Lima", "email": "Bia@Example.com", "password": goodPass, "referral_code": "AMIGO1"}

	res := c.Do("POST", "/api/auth/signup", map[string]string{"first_name": "Bia", "last_name": "Lima", "email": "bia@example.com", "password": "curta"})
	if res.Status != http.StatusUnprocessableEntity || !strings.HasPrefix(res.ErrorMessage(), "Senha inválida: deve ter pelo menos 8 caracteres") {
		t.Fatalf("weak password: %d %s", res.Status, res.Body)
	}
	// AMIGO1 is no member's referral code: the account is created and the
	// spec's "problem with the referral" message answers.
	res = c.Do("POST", "/api/auth/signup", signup)
	if res.Status != http.StatusCreated || message(t, res) != auth.MsgSignupReferralFailed {
		t.Fatalf("signup: %d %s", res.Status, res.Body)
	}
	// The same address again: same answer, no second account.
	signup["email"] = " bia@example.COM"
	res = c.Do("POST", "/api/auth/signup", signup)
	if res.Status != http.StatusCreated || message(t, res) != auth.MsgSignupReferralFailed {
		t.Fatalf("second signup: %d %s", res.Status, res.Body)
	}
	var n int
	if err := srv.App.Pool.QueryRow(t.Context(), "SELECT count(*) FROM users WHERE email = 'bia@example.com' AND referral_code = 'AMIGO1'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d accounts (%v)", n, err)
	}

	res = c.Do("POST", "/api/auth/login", map[string]string{"email": "bia@example.com", "password": goodPass})
	if res.Status != http.StatusForbidden || res.ErrorMessage() != auth.MsgNotConfirmed {
		t.Fatalf("unconfirmed login: %d %s", res.Status, res.Body)
	}
	token := mailedToken(t, srv, "bia@example.com", "/confirmar-email")
	res = c.Do("POST", "/api/auth/confirm", map[string]string{"token": token})
	if res.Status != http.StatusOK || message(t, res) != auth.MsgConfirmOK {
		t.Fatalf("confirm: %d %s", res.Status, res.Body)
	}
	res = c.Do("POST", "/api/auth/confirm", map[string]string{"token": token})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != auth.MsgConfirmInvalid {
		t.Fatalf("second confirm: %d %s", res.Status, res.Body)
	}

	res = c.Do("POST", "/api/auth/login", map[string]string{"email": "BIA@example.com", "password": "Errada#2026"})
	if res.Status != http.StatusUnauthorized || res.ErrorMessage() != auth.MsgBadCredentials {
		t.Fatalf("wrong password: %d %s", res.Status, res.Body)
	}
	res = c.Do("POST", "/api/auth/login", map[string]string{"email": "bia@example.com", "password": goodPass})
	if res.Status != http.StatusOK {
		t.Fatalf("login: %d %s", res.Status, res.Body)
	}
	var login struct {
		Message string
		User    auth.SessionUser
	}
	res.JSON(t, &login)
	if login.Message != auth.MsgLoginOK || login.User.Email != "bia@example.com" || login.User.Provider != "email" || len(login.User.Roles) == 0 || login.User.Roles[0] != "user" {
		t.Errorf("login body %+v", login)
	}
	access, refresh, csrf := cookieFrom(res, auth.CookieAccess), cookieFrom(res, auth.CookieRefresh), cookieFrom(res, auth.CookieCSRF)
	if access == nil || !access.HttpOnly || access.Path != "/" || access.SameSite != http.SameSiteLaxMode || access.Secure {
		t.Errorf("access cookie %+v (plain-http localhost: not Secure)", access)
	}
	if refresh == nil || !refresh.HttpOnly || refresh.Path != "/api/auth" || refresh.MaxAge < 29*24*3600 {
		t.Errorf("refresh cookie %+v", refresh)
	}
	if csrf == nil || csrf.HttpOnly || csrf.Path != "/" || csrf.Value == "" {
		t.Errorf("csrf cookie %+v", csrf)
	}
	res = c.Do("GET", "/api/auth/session", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("session: %d %s", res.Status, res.Body)
	}

	// A cross-site HTML form (text/plain, no preflight) cannot sign in.
	form, _ := http.NewRequest("POST", srv.URL+"/api/auth/login", strings.NewReader(`{"email":"bia@example.com","password":"`+goodPass+`"}`))
	form.Header.Set("Content-Type", "text/plain")
	if res := srv.Client(t).Send(form); res.Status != http.StatusUnprocessableEntity || cookieFrom(res, auth.CookieAccess) != nil {
		t.Errorf("text/plain login: %d", res.Status)
	}

	// Other clients use the access token as a bearer token, without CSRF.
	req, _ := http.NewRequest("GET", srv.URL+"/api/auth/session", nil)
	req.Header.Set("Authorization", "Bearer "+access.Value)
	if res := srv.Client(t).Send(req); res.Status != http.StatusOK {
		t.Errorf("bearer: %d %s", res.Status, res.Body)
	}
}

// TestHTTPSecureCookiesOffLocalhost: a non-local PUBLIC_URL gets Secure cookies.
func TestHTTPSecureCookiesOffLocalhost(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PUBLIC_URL": "https://vetclube.example"})
	_, _, err := srv.App.Auth.CreateConfirmedUser(t.Context(), auth.NewUser{Email: "sec@example.com", Password: goodPass})
	if err != nil {
		t.Fatal(err)
	}
	res := srv.Client(t).Do("POST", "/api/auth/login", map[string]string{"email": "sec@example.com", "password": goodPass})
	if res.Status != http.StatusOK {
		t.Fatalf("login: %d %s", res.Status, res.Body)
	}
	// Prefixed names: a browser takes a "__Host-" cookie only from a secure
	// origin, for Path=/ and without Domain, so no sibling site can plant one.
	for _, name := range []string{"__Host-vc_access", "__Secure-vc_refresh", "__Host-vc_csrf"} {
		if c := cookieFrom(res, name); c == nil || !c.Secure || c.Domain != "" || (strings.HasPrefix(name, "__Host-") && c.Path != "/") {
			t.Errorf("%s not set as a Secure prefixed cookie: %+v", name, c)
		}
	}
	for _, name := range []string{auth.CookieAccess, auth.CookieRefresh, auth.CookieCSRF} {
		if c := cookieFrom(res, name); c != nil {
			t.Errorf("plain %s set on a secure origin: %+v", name, c)
		}
	}
	// The server reads only the prefixed names there.
	access := cookieFrom(res, "__Host-vc_access")
	req, _ := http.NewRequest("GET", srv.URL+"/api/auth/session", nil)
	req.AddCookie(&http.Cookie{Name: auth.CookieAccess, Value: access.Value})
	if r := srv.Client(t).Send(req); r.Status != http.StatusUnauthorized {
		t.Errorf("plain-named access cookie accepted on a secure origin: %d", r.Status)
	}
	req, _ = http.NewRequest("GET", srv.URL+"/api/auth/session", nil)
	req.AddCookie(&http.Cookie{Name: "__Host-vc_access", Value: access.Value})
	if r := srv.Client(t).Send(req); r.Status != http.StatusOK {
		t.Errorf("prefixed access cookie refused: %d %s", r.Status, r.Body)
	}
	// Logout clears the prefixed cookies and any left under the old names.
	req, _ = http.NewRequest("POST", srv.URL+"/api/auth/logout", nil)
	req.AddCookie(&http.Cookie{Name: "__Host-vc_access", Value: access.Value})
	req.Header.Set("X-CSRF-Token", cookieFrom(res, "__Host-vc_csrf").Value)
	out := srv.Client(t).Send(req)
	if out.Status != http.StatusOK {
		t.Fatalf("logout: %d %s", out.Status, out.Body)
	}
	for _, name := range []string{"__Host-vc_access", "__Secure-vc_refresh", "__Host-vc_csrf", auth.CookieAccess, auth.CookieRefresh, auth.CookieCSRF} {
		if c := cookieFrom(out, name); c == nil || c.MaxAge >= 0 {
			t.Errorf("logout did not clear %s: %+v", name, c)
		}
	}
}

func TestHTTPCSRFOnCookieWrites(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, _ := signedIn(t, srv, "csrf@example.com")
	send := func(header string) apptest.Response {
		req, _ := http.NewRequest("POST", srv.URL+"/api/auth/logout", nil)
		res, err := c.HTTP.Do(func() *http.Request {
			if header != "" {
				req.Header.Set("X-CSRF-Token", header)
			}
			return req
		}())
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		return apptest.Response{Status: res.StatusCode, Header: res.Header}
	}
	if res := send(""); res.Status != http.StatusForbidden {
		t.Errorf("cookie write without CSRF header: %d", res.Status)
	}
	if res := send("forged"); res.Status != http.StatusForbidden {
		t.Errorf("cookie write with a wrong CSRF header: %d", res.Status)
	}
	if res := c.Do("GET", "/api/auth/session", nil); res.Status != http.StatusOK {
		t.Errorf("refused writes ended the session: %d", res.Status)
	}
	if res := c.Do("POST", "/api/auth/logout", nil); res.Status != http.StatusOK {
		t.Errorf("write with the CSRF header: %d", res.Status)
	}
}

func TestHTTPRefreshLogoutAndSessions(t *testing.T) {
	srv := apptest.Start(t, nil)
	if _, _, err := srv.App.Auth.CreateConfirmedUser(t.Context(), auth.NewUser{Email: "multi@example.com", Password: goodPass}); err != nil {
		t.Fatal(err)
	}
	login := func() *apptest.Client {
		c := srv.Client(t)
		if res := c.Do("POST", "/api/auth/login", map[string]string{"email": "multi@example.com", "password": goodPass}); res.Status != http.StatusOK {
			t.Fatalf("login: %d %s", res.Status, res.Body)
		}
		return c
	}
	phone, laptop := login(), login()

	res := phone.Do("POST", "/api/auth/refresh", nil)
	if res.Status != http.StatusOK || cookieFrom(res, auth.CookieRefresh) == nil || cookieFrom(res, auth.CookieAccess) == nil {
		t.Fatalf("refresh: %d %s", res.Status, res.Body)
	}
	if res := phone.Do("GET", "/api/auth/session", nil); res.Status != http.StatusOK {
		t.Fatalf("session after refresh: %d", res.Status)
	}
	// Refresh without a refresh cookie is a 401.
	if res := srv.Client(t).Do("POST", "/api/auth/refresh", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("refresh without cookie: %d", res.Status)
	}

	res = phone.Do("GET", "/api/auth/sessions", nil)
	var list struct{ Sessions []auth.SessionInfo }
	res.JSON(t, &list)
	if len(list.Sessions) != 2 {
		t.Fatalf("sessions %s", res.Body)
	}
	var other string
	currents := 0
	for _, s := range list.Sessions {
		if s.Current {
			currents++
		} else {
			other = s.ID
		}
	}
	if currents != 1 || other == "" {
		t.Fatalf("current flags wrong: %s", res.Body)
	}
	// Someone else cannot revoke the user's sessions.
	stranger, _ := signedIn(t, srv, "stranger@example.com")
	if res := stranger.Do("DELETE", "/api/auth/sessions/"+other, nil); res.Status != http.StatusNotFound {
		t.Errorf("stranger revoked a session: %d", res.Status)
	}
	if res := phone.Do("DELETE", "/api/auth/sessions/not-a-uuid", nil); res.Status != http.StatusNotFound {
		t.Errorf("bad id: %d", res.Status)
	}
	if res := phone.Do("DELETE", "/api/auth/sessions/"+other, nil); res.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", res.Status, res.Body)
	}
	if res := laptop.Do("GET", "/api/auth/session", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("revoked session still signed in: %d", res.Status)
	}
	if res := laptop.Do("POST", "/api/auth/refresh", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("revoked session refreshed: %d", res.Status)
	}

	// Logout ends only the current session.
	third := login()
	res = phone.Do("POST", "/api/auth/logout", nil)
	if res.Status != http.StatusOK || message(t, res) != auth.MsgLogoutOK {
		t.Fatalf("logout: %d %s", res.Status, res.Body)
	}
	if c := cookieFrom(res, auth.CookieAccess); c == nil || c.MaxAge >= 0 {
		t.Errorf("access cookie not cleared: %+v", c)
	}
	if res := phone.Do("GET", "/api/auth/session", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("after logout: %d", res.Status)
	}
	if res := third.Do("GET", "/api/auth/session", nil); res.Status != http.StatusOK {
		t.Errorf("logout ended another session: %d", res.Status)
	}
}

func TestHTTPRefreshReuseWithinGrace(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, _ := signedIn(t, srv, "grace@example.com")
	u, _ := url.Parse(srv.URL + "/api/auth/")
	var old string
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == auth.CookieRefresh {
			old = ck.Value
		}
	}
	if res := c.Do("POST", "/api/auth/refresh", nil); res.Status != http.StatusOK {
		t.Fatalf("refresh: %d", res.Status)
	}
	// A second tab presents the now-spent token at once: the user comes back,
	// no cookies are rotated, and the session lives on.
	tab := srv.Client(t)
	// The tab shares the session, so it holds the same CSRF token.
	var csrf string
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == auth.CookieCSRF {
			csrf = ck.Value
		}
	}
	tab.HTTP.Jar.SetCookies(u, []*http.Cookie{{Name: auth.CookieRefresh, Value: old, Path: "/api/auth"}, {Name: auth.CookieCSRF, Value: csrf, Path: "/"}})
	res := tab.Do("POST", "/api/auth/refresh", nil)
	if res.Status != http.StatusOK || cookieFrom(res, auth.CookieRefresh) != nil {
		t.Fatalf("grace refresh: %d %s %v", res.Status, res.Body, res.Header["Set-Cookie"])
	}
	if res := c.Do("GET", "/api/auth/session", nil); res.Status != http.StatusOK {
		t.Errorf("session revoked within grace: %d", res.Status)
	}
}

func TestHTTPPasswordReset(t *testing.T) {
	srv := apptest.Start(t, nil)
	c, _ := signedIn(t, srv, "forgot@example.com")
	for _, email := range []string{"forgot@example.com", "nobody@example.com"} {
		res := srv.Client(t).Do("POST", "/api/auth/password/forgot", map[string]string{"email": email})
		if res.Status != http.StatusOK || message(t, res) != auth.MsgResetSent {
			t.Errorf("forgot %q: %d %s", email, res.Status, res.Body)
		}
	}
	if res := srv.Client(t).Do("POST", "/api/auth/password/forgot", map[string]string{"email": "not an email"}); res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Informe um email válido." {
		t.Errorf("forgot with a malformed address: %d %s", res.Status, res.Body)
	}
	token := mailedToken(t, srv, "forgot@example.com", "/redefinir-senha")
	res := srv.Client(t).Do("POST", "/api/auth/password/reset", map[string]string{"token": token, "password": "semforca"})
	if res.Status != http.StatusUnprocessableEntity || !strings.HasPrefix(res.ErrorMessage(), "Senha inválida: ") {
		t.Fatalf("weak: %d %s", res.Status, res.Body)
	}
	res = srv.Client(t).Do("POST", "/api/auth/password/reset", map[string]string{"token": token, "password": "Nova#Senha2026"})
	if res.Status != http.StatusOK || message(t, res) != auth.MsgResetOK {
		t.Fatalf("reset: %d %s", res.Status, res.Body)
	}
	if res := c.Do("GET", "/api/auth/session", nil); res.Status != http.StatusUnauthorized {
		t.Errorf("session survived the reset: %d", res.Status)
	}
	res = srv.Client(t).Do("POST", "/api/auth/login", map[string]string{"email": "forgot@example.com", "password": "Nova#Senha2026"})
	if res.Status != http.StatusOK {
		t.Errorf("login with the new password: %d %s", res.Status, res.Body)
	}
}

// TestHTTPRateLimitsAcrossInstances: two servers on one database share the
// counters. Both run on one test clock that stands still, so every request
// falls in the same window (the limits count per window); moving the clock a
// window on frees the key again.
func TestHTTPRateLimitsAcrossInstances(t *testing.T) {
	clk := apptest.NewClock(time.Now().UTC().Truncate(time.Hour))
	a := apptest.Start(t, nil, apptest.WithClock(clk.Now))
	b := apptest.StartOn(t, a.DBURL, nil, apptest.WithClock(clk.Now))
	ca, cb := a.Client(t), b.Client(t)

	// Sign-ups: 2 per address per 60 s, counted across both instances.
	body := map[string]string{"first_name": "X", "last_name": "Y", "email": "twice@example.com", "password": goodPass}
	statuses := []int{ca.Do("POST", "/api/auth/signup", body).Status, cb.Do("POST", "/api/auth/signup", body).Status}
	third := ca.Do("POST", "/api/auth/signup", body)
	if statuses[0] != http.StatusCreated || statuses[1] != http.StatusCreated ||
		third.Status != http.StatusTooManyRequests || third.ErrorMessage() != auth.MsgSignupLimited {
		t.Errorf("signup statuses %v then %d %q", statuses, third.Status, third.ErrorMessage())
	}
	clk.Advance(59 * time.Second)
	if res := cb.Do("POST", "/api/auth/signup", body); res.Status != http.StatusTooManyRequests {
		t.Errorf("signup at the window's last second: %d, want %d", res.Status, http.StatusTooManyRequests)
	}
	clk.Advance(time.Second)
	if res := cb.Do("POST", "/api/auth/signup", body); res.Status != http.StatusCreated {
		t.Errorf("signup in the next window: %d %s", res.Status, res.Body)
	}

	// The same address signed up at once on both instances: one account.
	var wg sync.WaitGroup
	statuses = make([]int, 6)
	for i := range statuses {
		c := ca
		if i%2 == 1 {
			c = cb
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = c.Do("POST", "/api/auth/signup", map[string]string{"first_name": "R", "last_name": "C", "email": "race@example.com", "password": goodPass}).Status
		}()
	}
	wg.Wait()
	var accounts int
	_ = a.App.Pool.QueryRow(t.Context(), "SELECT count(*) FROM users WHERE email = 'race@example.com'").Scan(&accounts)
	if accounts != 1 {
		t.Errorf("%d accounts after concurrent sign-ups on two instances (statuses %v)", accounts, statuses)
	}
	created := 0
	for _, st := range statuses {
		switch st {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
		default:
			t.Errorf("concurrent sign-up answered %d", st)
		}
	}
	if created != 2 {
		t.Errorf("%d concurrent sign-ups let through in one window, want 2 (statuses %v)", created, statuses)
	}

	// Sign-ins: 3 per address per 10 s, across both instances.
	email := "limit@example.com"
	if _, _, err := a.App.Auth.CreateConfirmedUser(t.Context(), auth.NewUser{Email: email, Password: goodPass}); err != nil {
		t.Fatal(err)
	}
	login := map[string]string{"email": email, "password": goodPass}
	statuses = nil
	for i := range 3 {
		c := ca
		if i%2 == 1 {
			c = cb
		}
		statuses = append(statuses, c.Do("POST", "/api/auth/login", login).Status)
	}
	fourth := cb.Do("POST", "/api/auth/login", login)
	if statuses[0] != http.StatusOK || statuses[1] != http.StatusOK || statuses[2] != http.StatusOK ||
		fourth.Status != http.StatusTooManyRequests || fourth.ErrorMessage() != auth.MsgLoginLimited {
		t.Errorf("login statuses %v then %d %q", statuses, fourth.Status, fourth.ErrorMessage())
	}
	clk.Advance(10 * time.Second)
	if res := ca.Do("POST", "/api/auth/login", login); res.Status != http.StatusOK {
		t.Errorf("login in the next window: %d %s", res.Status, res.Body)
	}
}

func TestHTTPDevMailboxOnlyInDevelopment(t *testing.T) {
	dev := apptest.Start(t, nil)
	res := dev.Client(t).Do("POST", "/api/auth/signup", map[string]string{"first_name": "M", "last_name": "B", "email": "box@example.com", "password": goodPass})
	if res.Status != http.StatusCreated {
		t.Fatal(res.Status)
	}
	mailedToken(t, dev, "box@example.com", "/confirmar-email") // sent in the background
	res = dev.Client(t).Do("GET", "/api/dev/mailbox", nil)
	var box mailboxBody
	res.JSON(t, &box)
	if len(box.Messages) != 1 || box.Messages[0].To != "box@example.com" || box.Messages[0].Subject == "" ||
		!strings.Contains(box.Messages[0].HTML, "/confirmar-email?token=") || len(box.Messages[0].Links) != 1 {
		t.Fatalf("mailbox %s", res.Body)
	}
	page := dev.Client(t).Do("GET", "/dev/mailbox", nil)
	if page.Status != http.StatusOK || !strings.Contains(string(page.Body), box.Messages[0].Subject) ||
		!strings.Contains(string(page.Body), `href="`+box.Messages[0].Links[0]+`"`) {
		t.Errorf("mailbox page: %d %s", page.Status, page.Body)
	}

	prod := apptest.Start(t, map[string]string{"APP_ENV": "production"})
	for _, path := range []string{"/api/dev/mailbox", "/dev/mailbox"} {
		res := prod.Client(t).Do("GET", path, nil)
		if res.Status == http.StatusOK && strings.Contains(string(res.Body), "messages") {
			t.Errorf("%s served in production: %s", path, res.Body)
		}
	}
}

func TestHTTPProvidersWithoutGoogle(t *testing.T) {
	srv := apptest.Start(t, nil)
	res := srv.Client(t).Do("GET", "/api/auth/providers", nil)
	if res.Status != http.StatusOK || strings.TrimSpace(string(res.Body)) != `{"google":false}` {
		t.Errorf("providers: %d %s", res.Status, res.Body)
	}
	res = srv.Client(t).Do("GET", "/api/auth/google/start", nil)
	if res.Status != http.StatusFound || !strings.HasPrefix(res.Header.Get("Location"), "/login?google_error=") {
		t.Errorf("start without Google: %d %s", res.Status, res.Header.Get("Location"))
	}
}
