package fakeoai

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestNotClinicalRuleOnFixtures(t *testing.T) {
	rx, err := os.ReadFile("../../../web/e2e/fixtures/radiografia.png")
	if err != nil {
		t.Fatal(err)
	}
	flat, err := os.ReadFile("../../../web/e2e/fixtures/imagem-uniforme.png")
	if err != nil {
		t.Fatal(err)
	}
	if bad, why := NotClinical(rx); bad {
		t.Errorf("a radiograph-like image refused: %s", why)
	}
	if bad, _ := NotClinical(flat); !bad {
		t.Error("a uniform image accepted")
	}
	if bad, _ := NotClinical([]byte("not an image")); !bad {
		t.Error("garbage accepted")
	}
	tag := "[ferramenta=diagnostico-imagem modelo=analise versao=1]"
	for _, tc := range []struct {
		img     []byte
		refused bool
	}{{rx, false}, {flat, true}} {
		url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(tc.img)
		text, ok := ToolAnswer(Request{Messages: []Message{{Role: "system", Content: tag}, {Role: "user", Content: "Espécie: «Cão»", Images: []string{url}}}})
		if !ok || strings.HasPrefix(text, "RECUSA:") != tc.refused {
			t.Fatalf("answer (refused=%v): %s", tc.refused, text)
		}
		if !tc.refused {
			var v map[string]any
			if json.Unmarshal([]byte(text), &v) != nil || v["diferenciais"] == nil {
				t.Fatalf("not the structured JSON: %s", text)
			}
		}
	}
	post, _ := ToolAnswer(Request{Messages: []Message{{Role: "system", Content: "[ferramenta=social-media-ia modelo=post versao=1]"},
		{Role: "user", Content: "Rede: «Status do WhatsApp»\nLimite de caracteres do texto: 400\nTema: «Adoção»"}}})
	var p struct {
		Texto     string   `json:"texto"`
		Variacoes []string `json:"variacoes"`
	}
	if json.Unmarshal([]byte(post), &p) != nil || len([]rune(p.Texto)) > 400 || len(p.Variacoes) != 3 || !strings.Contains(p.Texto, "Modo demonstração") {
		t.Fatalf("post: %s", post)
	}
}
