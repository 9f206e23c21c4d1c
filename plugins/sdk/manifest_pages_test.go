package sdk

import "testing"

// A tool may declare further pages (each its own slug) and content types
// of its own; slugs never repeat.
func TestToolPagesAndContentTypes(t *testing.T) {
	base := func() Manifest {
		return Manifest{ID: "banco", Name: "Banco", Description: "d", Version: "1.0.0", MinCoreVersion: "1.0.0",
			Kind: KindTool, Slug: "banco", Access: AccessUser, UIKind: UICustom}
	}
	m := base()
	m.Pages = []ToolPage{{Slug: "quiz", Name: "Quiz", Description: "Rodadas"}}
	m.ContentTypes = []ContentType{{ID: "banco-questoes", Singular: "Questão", Plural: "Questões", Private: true,
		Fields: []ContentField{{Name: "statement", Label: "Enunciado", Kind: ContentLongText}}}}
	if err := m.Validate(); err != nil {
		t.Fatalf("a tool with a page and a type: %v", err)
	}
	for name, pages := range map[string][]ToolPage{
		"same slug as the tool": {{Slug: "banco", Name: "x", Description: "y"}},
		"repeated slug":         {{Slug: "a", Name: "x", Description: "y"}, {Slug: "a", Name: "z", Description: "w"}},
		"bad slug":              {{Slug: "Quiz_Area", Name: "x", Description: "y"}},
		"no name":               {{Slug: "quiz", Description: "y"}},
	} {
		m := base()
		m.Pages = pages
		if m.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	m = base()
	m.ContentTypes = []ContentType{{ID: "x"}}
	if m.Validate() == nil {
		t.Error("a tool's content type without labels was accepted")
	}
}
