package courses_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/courses"
)

func refusal(t *testing.T, err error) *core.Error {
	t.Helper()
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.ECONFLICT {
		t.Fatalf("want a 409 refusal, got %v", err)
	}
	return ce
}

// The plugin refuses what it sees in the item itself; the core's gate what
// needs the curriculum; every missing item is named at once.
func TestPublishGateNamesEveryMissingItem(t *testing.T) {
	e := newEnv(t)

	// The plugin's own refusals (a real plugin process).
	_, err := e.publish(e.create(t, courses.TypeLesson, "Aula vazia", map[string]any{"description": "Sem nada"}))
	if ce := refusal(t, err); ce.Message != "A aula precisa de um vídeo (YouTube, Vimeo, enviado ou transmissão) ou de um texto para ser publicada." {
		t.Fatalf("empty lesson: %q", ce.Message)
	}
	_, err = e.publish(e.create(t, courses.TypeModule, "Módulo vazio", nil))
	if ce := refusal(t, err); ce.Message != "O módulo precisa de pelo menos uma aula para ser publicado." {
		t.Fatalf("empty module: %q", ce.Message)
	}

	// Nothing at all: category, instructor and modules.
	bare := e.create(t, courses.TypeCourse, "Curso sem nada", map[string]any{"description": "Uma descrição longa o bastante."})
	_, err = e.publish(bare)
	ce := refusal(t, err)
	for _, want := range []string{courses.MsgGateNoCategory, courses.MsgGateNoInstructor, courses.MsgGateNoModules} {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("message %q lacks %q", ce.Message, want)
		}
	}
	if ce.Fields["category"] != courses.MsgGateNoCategory || ce.Fields["instructor"] != courses.MsgGateNoInstructor ||
		ce.Fields["modules"] != courses.MsgGateNoModules {
		t.Errorf("fields: %v", ce.Fields)
	}

	// An unpublished module, a module whose only lesson is unpublished, an
	// uploaded video being processed again after its lesson was published
	// (nothing plays meanwhile), an unpublished category and instructor.
	draftLesson := e.create(t, courses.TypeLesson, "Aula rascunho", map[string]any{"body": "Texto"})
	draftModule := e.create(t, courses.TypeModule, "Módulo rascunho", map[string]any{"lessons": []string{draftLesson.ID}})
	emptyish := e.module(t, "Módulo só com rascunho", draftLesson.ID)
	asset := e.asset(t, "pronto")
	upload := e.lesson(t, "Aula enviada", map[string]any{"video_source": "upload", "youtube_url": nil, "video_asset": asset})
	uploadModule := e.module(t, "Módulo com vídeo enviado", upload)
	e.setAssetState(t, asset, "processando")
	offCat := e.create(t, courses.TypeCategory, "Categoria rascunho", nil)
	offIns := e.create(t, courses.TypeInstructor, "Instrutor rascunho", nil)
	c := e.create(t, courses.TypeCourse, "Curso incompleto", map[string]any{"description": "Uma descrição longa o bastante.",
		"category": offCat.ID, "instructor": offIns.ID, "modules": []string{draftModule.ID, emptyish, uploadModule}})
	_, err = e.publish(c)
	ce = refusal(t, err)
	for _, want := range []string{courses.MsgGateCategoryOffline, courses.MsgGateInstructorOff,
		fmt.Sprintf(courses.MsgGateModuleOffline, "Módulo rascunho"), fmt.Sprintf(courses.MsgGateModuleEmpty, "Módulo só com rascunho"),
		fmt.Sprintf(courses.MsgGateLessonNothing, "Aula enviada")} {
		if !strings.Contains(ce.Message, want) {
			t.Errorf("message %q lacks %q", ce.Message, want)
		}
	}

	// Only optional lessons: nothing could ever complete the course.
	opt := e.module(t, "Módulo opcional", e.lesson(t, "Aula extra", map[string]any{"is_optional": true}))
	_, err = e.publish(e.create(t, courses.TypeCourse, "Curso opcional", map[string]any{"description": "Uma descrição longa o bastante.",
		"category": e.category, "instructor": e.instructor, "modules": []string{opt}}))
	if ce := refusal(t, err); !strings.Contains(ce.Message, courses.MsgGateNoRequired) {
		t.Errorf("optional only: %q", ce.Message)
	}

	// Fixed: published with a text lesson and a YouTube lesson.
	good := e.module(t, "Módulo bom", e.lesson(t, "Aula em texto", map[string]any{"video_source": nil, "youtube_url": nil, "body": "# Conteúdo"}),
		e.lesson(t, "Aula em vídeo", nil))
	id := e.course(t, "Curso pronto", nil, good)
	if id == "" {
		t.Fatal("no id")
	}
}
