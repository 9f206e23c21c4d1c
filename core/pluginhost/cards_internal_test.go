package pluginhost

import "testing"

func TestAppLinkKeepsOnlyPathsInsideTheApp(t *testing.T) {
	cases := map[string]string{
		"/ferramentas/calculadoras": "/ferramentas/calculadoras",
		"/pontos?aba=extrato":       "/pontos?aba=extrato",
		"":                          "",
		"https://evil.example":      "",
		"//evil.example/x":          "",
		"/\\evil.example":           "",
		"javascript:alert(1)":       "",
		"/ok\r\nSet-Cookie: x=1":    "",
		"ferramentas":               "",
	}
	for in, want := range cases {
		if got := appLink(in); got != want {
			t.Errorf("appLink(%q) = %q, want %q", in, got, want)
		}
	}
}
