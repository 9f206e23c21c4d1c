package main

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func TestManifestIsValid(t *testing.T) {
	if err := Plugin().Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(Specialties) != 12 {
		t.Fatalf("%d specialties, the profile has 12", len(Specialties))
	}
}

// The core's read model of this plugin's content is filled by a trigger
// that reads the published fields by name; every name it reads must be one
// this plugin declares.
func TestProjectionReadsDeclaredFields(t *testing.T) {
	sdktest.CheckProjection(t, "../../migrations", "challenge_listings_sync", Plugin().Manifest.ContentTypes)
}

func valid() map[string]any {
	return map[string]any{"kind": "caso_clinico", "starts_at": "2026-12-01T12:00:00Z", "ends_at": "2026-12-08T12:00:00Z",
		"points": 100.0, "history": "Cão, 8 anos, apatia.", "exam_findings": "Mucosas pálidas.",
		"q1_text": "Qual o diagnóstico?", "q1_options": "Anemia\nDermatite\n", "q1_correct": "A",
		"explanation": "Mucosas pálidas e apatia apontam para anemia."}
}

func TestValidate(t *testing.T) {
	check := func(change map[string]any) sdk.ContentCheck {
		t.Helper()
		f := valid()
		for k, v := range change {
			f[k] = v
		}
		c, err := Validate(context.Background(), nil, sdk.ContentItem{Type: TypeID, Fields: f})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := check(nil); c.Errors != nil {
		t.Fatalf("a valid case refused: %v", c.Errors)
	}
	cases := []struct {
		name   string
		change map[string]any
		field  string
		msg    string
	}{
		{"end before start", map[string]any{"ends_at": "2026-11-30T12:00:00Z"}, "ends_at", MsgEndBeforeStart},
		{"half a point", map[string]any{"points": 10.5}, "points", MsgWholePoints},
		{"case without history", map[string]any{"history": " "}, "history", MsgHistoryNeeded},
		{"case without findings", map[string]any{"exam_findings": ""}, "exam_findings", MsgFindingsNeeded},
		{"one option", map[string]any{"q1_options": "Anemia"}, "q1_options", MsgOptionsNeeded},
		{"repeated option", map[string]any{"q1_options": "Anemia\nanemia"}, "q1_options", MsgOptionRepeated},
		{"answer out of options", map[string]any{"q1_correct": "C"}, "q1_correct", MsgCorrectMissing},
		{"no answer", map[string]any{"q1_correct": ""}, "q1_correct", MsgCorrectNeeded},
		{"skipped question", map[string]any{"q3_text": "Outra?", "q3_options": "Sim\nNão", "q3_correct": "B"}, "q3_text", MsgQuestionGap},
		{"options without a question", map[string]any{"q2_options": "Sim\nNão"}, "q2_text", MsgOrphanAnswerData},
		{"case without discussion", map[string]any{"explanation": ""}, "explanation", MsgExplanationNeeded},
		{"quiz without questions", map[string]any{"kind": "quiz", "q1_text": "", "q1_options": "", "q1_correct": ""}, "q1_text", MsgQuestionNeeded},
		{"study streak without goal", study(nil), "lessons_goal", MsgLessonsGoal},
		{"study streak with goal 0", study(map[string]any{"lessons_goal": 0.0}), "lessons_goal", MsgLessonsGoal},
		{"study streak with goal 101", study(map[string]any{"lessons_goal": 101.0}), "lessons_goal", MsgLessonsGoal},
		{"study streak with half a lesson", study(map[string]any{"lessons_goal": 2.5}), "lessons_goal", MsgGoalWhole},
		{"study streak with questions", study(map[string]any{"lessons_goal": 3.0, "q1_text": "Pergunta?"}), "q1_text", MsgNoQuestions},
		{"community with the lessons' goal only", study(map[string]any{"kind": KindCommunity, "lessons_goal": 3.0}), "answers_goal", MsgAnswersGoal},
		{"community with options", study(map[string]any{"kind": KindCommunity, "answers_goal": 2.0, "q2_options": "A\nB"}), "q2_text", MsgNoQuestions},
	}
	for _, tc := range cases {
		if c := check(tc.change); c.Errors[tc.field] != tc.msg {
			t.Errorf("%s: errors %v, want %s=%q", tc.name, c.Errors, tc.field, tc.msg)
		}
	}
	// A study streak needs a goal and nothing of a case or a quiz.
	if c := check(study(map[string]any{"lessons_goal": 5.0})); c.Errors != nil {
		t.Fatalf("a study streak refused: %v", c.Errors)
	}
	if c := check(study(map[string]any{"kind": KindCommunity, "answers_goal": 2.0})); c.Errors != nil {
		t.Fatalf("a community challenge refused: %v", c.Errors)
	}
	// A quiz needs no case.
	if c := check(map[string]any{"kind": "quiz", "history": "", "exam_findings": ""}); c.Errors != nil {
		t.Fatalf("a quiz without a case refused: %v", c.Errors)
	}
}

// study changes valid() into a study streak: no case, no questions.
func study(change map[string]any) map[string]any {
	f := map[string]any{"kind": KindStudy, "history": "", "exam_findings": "", "explanation": "",
		"q1_text": "", "q1_options": "", "q1_correct": ""}
	for k, v := range change {
		f[k] = v
	}
	return f
}
