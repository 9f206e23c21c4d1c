package courses

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

// Reasons a course is not published, one per missing item.
const (
	MsgGateIntro            = "Não é possível publicar o curso:"
	MsgGateNoCategory       = "Escolha a categoria do curso."
	MsgGateCategoryOffline  = "A categoria escolhida não está publicada."
	MsgGateNoInstructor     = "Escolha o instrutor do curso."
	MsgGateInstructorOff    = "O instrutor escolhido não está publicado."
	MsgGateNoModules        = "Adicione pelo menos um módulo ao curso."
	MsgGateNoPlayableModule = "O curso precisa de pelo menos um módulo publicado com uma aula publicada."
	MsgGateModuleOffline    = "O módulo «%s» não está publicado."
	MsgGateModuleEmpty      = "O módulo «%s» não tem nenhuma aula publicada."
	MsgGateLessonNothing    = "A aula «%s» não tem vídeo que possa ser reproduzido nem texto."
	MsgGateNoRequired       = "O curso precisa de pelo menos uma aula obrigatória (as opcionais não contam para o progresso)."
)

// PublishGate refuses publishing a course (content.Gate, run after the
// plugin's own hook) unless it has a published category and instructor and
// at least one published module with a published lesson, and every
// published lesson of its published modules has a playable video or a
// text. Every missing item is named: the message lists them and each is
// also given by field (category, instructor, modules) for the backoffice
// form.
func (s *Service) PublishGate(ctx context.Context, it content.Item, to content.Status) error {
	if it.Type != TypeCourse || to != content.StatusPublished {
		return nil
	}
	var f struct {
		Category   string   `json:"category"`
		Instructor string   `json:"instructor"`
		Modules    []string `json:"modules"`
	}
	if err := json.Unmarshal(it.Fields, &f); err != nil {
		return fmt.Errorf("courses: gate: %w", err)
	}
	var reasons []string
	fields := map[string]string{}
	add := func(field, reason string) {
		reasons = append(reasons, reason)
		if fields[field] != "" {
			fields[field] += " " + reason
		} else {
			fields[field] = reason
		}
	}
	published := func(table, id string) (bool, error) {
		var ok bool
		err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+table+` WHERE item_id = $1::uuid AND published)`, id).Scan(&ok)
		return ok, err
	}
	if f.Category == "" {
		add("category", MsgGateNoCategory)
	} else if ok, err := published("course_categories", f.Category); err != nil {
		return wrap("gate", err)
	} else if !ok {
		add("category", MsgGateCategoryOffline)
	}
	if f.Instructor == "" {
		add("instructor", MsgGateNoInstructor)
	} else if ok, err := published("course_instructors", f.Instructor); err != nil {
		return wrap("gate", err)
	} else if !ok {
		add("instructor", MsgGateInstructorOff)
	}
	if len(f.Modules) == 0 {
		add("modules", MsgGateNoModules)
	} else if err := s.gateModules(ctx, f.Modules, add); err != nil {
		return err
	}
	if len(reasons) == 0 {
		return nil
	}
	return &core.Error{Code: core.ECONFLICT, Message: MsgGateIntro + " " + strings.Join(reasons, " "), Fields: fields}
}

func (s *Service) gateModules(ctx context.Context, moduleIDs []string, add func(field, reason string)) error {
	type mod struct {
		id, title string
		published bool
		lessons   []string
	}
	rows, err := s.pool.Query(ctx, `SELECT i.id::text, coalesce(m.title, i.title), coalesce(m.published, false),
			coalesce(m.lesson_ids::text[], '{}')
		FROM unnest($1::uuid[]) WITH ORDINALITY AS x (id, ord)
		JOIN content_items i ON i.id = x.id
		LEFT JOIN course_modules m ON m.item_id = x.id
		ORDER BY x.ord`, moduleIDs)
	if err != nil {
		return wrap("gate modules", err)
	}
	mods, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (mod, error) {
		var m mod
		return m, r.Scan(&m.id, &m.title, &m.published, &m.lessons)
	})
	if err != nil {
		return wrap("gate modules", err)
	}
	withLesson, required := false, false
	for _, m := range mods {
		if !m.published {
			add("modules", fmt.Sprintf(MsgGateModuleOffline, m.title))
			continue
		}
		n := 0
		for _, id := range m.lessons {
			l, err := s.lessonRow(ctx, id)
			if core.ErrorCode(err) == core.ENOTFOUND {
				continue // unpublished lessons are not shown and not checked
			}
			if err != nil {
				return err
			}
			n++
			required = required || !l.optional
			if !playable(l) && strings.TrimSpace(l.body) == "" {
				add("modules", fmt.Sprintf(MsgGateLessonNothing, l.title))
			}
		}
		if n == 0 {
			add("modules", fmt.Sprintf(MsgGateModuleEmpty, m.title))
		} else {
			withLesson = true
		}
	}
	if !withLesson {
		add("modules", MsgGateNoPlayableModule)
	} else if !required {
		add("modules", MsgGateNoRequired)
	}
	return nil
}
