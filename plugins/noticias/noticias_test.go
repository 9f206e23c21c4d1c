package main

import (
	"context"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func TestManifestIsValid(t *testing.T) {
	if err := Plugin().Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestReadingMinutes(t *testing.T) {
	cases := map[string]int{
		"":                                 1,
		"Uma frase curta.":                 1,
		strings.Repeat("palavra ", 200):    1,
		strings.Repeat("palavra ", 201):    2,
		strings.Repeat("**cão** ", 1000):   5,
		"[link](https://exemplo.com.br/a)": 1,
	}
	for text, want := range cases {
		if got := ReadingMinutes(text); got != want {
			t.Errorf("ReadingMinutes(%.30q…) = %d, want %d", text, got, want)
		}
	}
}

func TestValidateSourceAndReadingTime(t *testing.T) {
	body := strings.Repeat("O CFMV publicou uma nova resolução. ", 100) // 600 words
	check := func(fields map[string]any) sdk.ContentCheck {
		t.Helper()
		c, err := Validate(context.Background(), nil, sdk.ContentItem{Type: TypeID, Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := check(map[string]any{"body": body, "source_url": "https://www.cfmv.gov.br"})
	if c.Errors["source_name"] != MsgSourceNameNeeded || c.Computed["reading_minutes"] != 3 {
		t.Fatalf("link without a name: %+v", c)
	}
	if c := check(map[string]any{"body": body, "source_name": "CFMV"}); c.Errors["source_url"] != MsgSourceURLNeeded {
		t.Fatalf("name without a link: %+v", c)
	}
	if c := check(map[string]any{"body": body, "source_name": "CFMV", "source_url": "https://www.cfmv.gov.br"}); c.Errors != nil {
		t.Fatalf("a named, linked source refused: %+v", c.Errors)
	}
}
