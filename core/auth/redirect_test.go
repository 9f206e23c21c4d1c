package auth

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileRedirects are post-sign-in redirects that must all become "/".
var hostileRedirects = []string{
	"",
	"evil.example",
	"https://evil.example",
	"//evil.example",
	"///evil.example",
	"/\\evil.example",
	"\\\\evil.example",
	"/../\\evil.example",
	"/..\\evil.example",
	"/./\\evil.example",
	"/%2F/evil.example",
	"/%2f%2fevil.example",
	"/%5Cevil.example",
	"/%5cevil.example",
	"/..%2F%5Cevil.example",
	"/../evil.example",
	"/a/../../evil.example",
	"/a/./b",
	"/%2E%2E/evil.example",
	"/\tevil.example",
	"/\n/evil.example",
	"/%09/evil.example",
	"/%0D%0ALocation:%20https://evil.example",
	"/\x00",
	"/%00",
	"/\x7f",
	"/\u0085",
	"/\xff",
	"/%ff",
	"/a?x=%5C",
	"/a#\\evil",
	"/a?x=%zz",
	"/" + strings.Repeat("a", maxRedirectLen),
}

func TestSafeRedirectRefusesHostilePaths(t *testing.T) {
	for _, in := range hostileRedirects {
		if got := safeRedirect(in); got != "/" {
			t.Errorf("safeRedirect(%q) = %q, want /", in, got)
		}
	}
}

func TestSafeRedirectKeepsSitePaths(t *testing.T) {
	for _, in := range []string{"/", "/comunidade?aba=1", "/perfil#dados", "/cursos/anestesia-101", "/busca?q=c%C3%A3o+%26+gato", "/a?next=//x", "/ação"} {
		if got := safeRedirect(in); got != in {
			t.Errorf("safeRedirect(%q) = %q, want it unchanged", in, got)
		}
	}
}

// The reported attack end to end: the callback's Location is exactly the
// checked path, never a re-cleaned one.
func TestGoogleStartRedirectParamIsChecked(t *testing.T) {
	q, _ := url.ParseQuery("redirect=%2F..%2F%5Cevil.example")
	if got := safeRedirect(q.Get("redirect")); got != "/" {
		t.Fatalf("the reported redirect passed as %q", got)
	}
}

// FuzzSafeRedirect checks that whatever goes in, what comes out is a path on
// this site as a browser resolves it: a single leading "/", no backslash or
// control character, and resolving it against the site keeps the site's host.
func FuzzSafeRedirect(f *testing.F) {
	for _, s := range hostileRedirects {
		f.Add(s)
	}
	f.Add("/comunidade?aba=1")
	f.Add("/perfil#x")
	base, _ := url.Parse("https://vetclube.example/login")
	f.Fuzz(func(t *testing.T, in string) {
		out := safeRedirect(in)
		if out != "/" && out != in {
			t.Fatalf("safeRedirect changed %q into %q", in, out)
		}
		if !strings.HasPrefix(out, "/") || strings.HasPrefix(out, "//") || strings.ContainsAny(out, "\\\t\r\n\x00") || !utf8.ValidString(out) {
			t.Fatalf("unsafe output %q from %q", out, in)
		}
		u, err := url.Parse(out)
		if err != nil {
			t.Fatalf("output %q does not parse: %v", out, err)
		}
		if r := base.ResolveReference(u); r.Host != "vetclube.example" || r.Scheme != "https" {
			t.Fatalf("%q resolves to %s", out, r)
		}
		if p, err := url.PathUnescape(u.EscapedPath()); err != nil || strings.HasPrefix(p, "//") || strings.Contains(p, "\\") {
			t.Fatalf("output %q decodes to an unsafe path %q", out, p)
		}
		// The header the callback writes carries it byte for byte.
		rec := httptest.NewRecorder()
		rec.Header().Set("Location", out)
		rec.WriteHeader(http.StatusFound)
		if rec.Header().Get("Location") != out {
			t.Fatalf("Location rewritten")
		}
	})
}
