package editorial_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// expected is the workflow written out by hand: for each state (status, and
// whether readers see a published snapshot) and action, the outcome for an
// editor, a revisor and a super admin: the target status, "403" (role) or
// "409" (state).
var expected = []struct {
	status    content.Status
	published bool
	action    editorial.Action
	editor    string
	revisor   string
	super     string
}{
	// Never published (or unpublished).
	{"rascunho", false, "submit", "em_revisao", "403", "em_revisao"},
	{"rascunho", false, "approve", "403", "409", "409"},
	{"rascunho", false, "request_changes", "403", "409", "409"},
	{"rascunho", false, "schedule", "403", "409", "409"},
	{"rascunho", false, "publish", "403", "409", "409"},
	{"rascunho", false, "unpublish", "403", "409", "409"},
	{"rascunho", false, "archive", "403", "arquivado", "arquivado"},
	{"rascunho", false, "discard", "409", "409", "409"},

	{"em_revisao", false, "submit", "409", "403", "409"},
	{"em_revisao", false, "approve", "403", "aprovado", "aprovado"},
	{"em_revisao", false, "request_changes", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"em_revisao", false, "schedule", "403", "409", "409"},
	{"em_revisao", false, "publish", "403", "409", "409"},
	{"em_revisao", false, "unpublish", "403", "409", "409"},
	{"em_revisao", false, "archive", "403", "arquivado", "arquivado"},
	{"em_revisao", false, "discard", "409", "409", "409"},

	{"alteracoes_solicitadas", false, "submit", "em_revisao", "403", "em_revisao"},
	{"alteracoes_solicitadas", false, "approve", "403", "409", "409"},
	{"alteracoes_solicitadas", false, "request_changes", "403", "409", "409"},
	{"alteracoes_solicitadas", false, "schedule", "403", "409", "409"},
	{"alteracoes_solicitadas", false, "publish", "403", "409", "409"},
	{"alteracoes_solicitadas", false, "unpublish", "403", "409", "409"},
	{"alteracoes_solicitadas", false, "archive", "403", "arquivado", "arquivado"},
	{"alteracoes_solicitadas", false, "discard", "409", "409", "409"},

	{"aprovado", false, "submit", "409", "403", "409"},
	{"aprovado", false, "approve", "403", "409", "409"},
	{"aprovado", false, "request_changes", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"aprovado", false, "schedule", "403", "agendado", "agendado"},
	{"aprovado", false, "publish", "403", "publicado", "publicado"},
	{"aprovado", false, "unpublish", "403", "409", "409"},
	{"aprovado", false, "archive", "403", "arquivado", "arquivado"},
	{"aprovado", false, "discard", "409", "409", "409"},

	{"agendado", false, "submit", "409", "403", "409"},
	{"agendado", false, "approve", "403", "409", "409"},
	{"agendado", false, "request_changes", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"agendado", false, "schedule", "403", "agendado", "agendado"},
	{"agendado", false, "publish", "403", "publicado", "publicado"},
	{"agendado", false, "unpublish", "403", "409", "409"},
	{"agendado", false, "archive", "403", "arquivado", "arquivado"},
	{"agendado", false, "discard", "409", "409", "409"},

	{"arquivado", false, "submit", "409", "403", "409"},
	{"arquivado", false, "approve", "403", "409", "409"},
	{"arquivado", false, "request_changes", "403", "409", "409"},
	{"arquivado", false, "schedule", "403", "409", "409"},
	{"arquivado", false, "publish", "403", "409", "409"},
	{"arquivado", false, "unpublish", "403", "409", "409"},
	{"arquivado", false, "archive", "403", "409", "409"},
	{"arquivado", false, "discard", "409", "409", "409"},

	// Published, with the working copy in each state (a pending draft
	// unless the status is publicado).
	{"rascunho", true, "submit", "em_revisao", "403", "em_revisao"},
	{"rascunho", true, "approve", "403", "409", "409"},
	{"rascunho", true, "request_changes", "403", "409", "409"},
	{"rascunho", true, "schedule", "403", "409", "409"},
	{"rascunho", true, "publish", "403", "409", "409"},
	{"rascunho", true, "unpublish", "403", "rascunho", "rascunho"},
	{"rascunho", true, "archive", "403", "arquivado", "arquivado"},
	{"rascunho", true, "discard", "publicado", "publicado", "publicado"},

	{"em_revisao", true, "submit", "409", "403", "409"},
	{"em_revisao", true, "approve", "403", "aprovado", "aprovado"},
	{"em_revisao", true, "request_changes", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"em_revisao", true, "schedule", "403", "409", "409"},
	{"em_revisao", true, "publish", "403", "409", "409"},
	{"em_revisao", true, "unpublish", "403", "em_revisao", "em_revisao"},
	{"em_revisao", true, "archive", "403", "arquivado", "arquivado"},
	{"em_revisao", true, "discard", "publicado", "publicado", "publicado"},

	{"alteracoes_solicitadas", true, "submit", "em_revisao", "403", "em_revisao"},
	{"alteracoes_solicitadas", true, "approve", "403", "409", "409"},
	{"alteracoes_solicitadas", true, "request_changes", "403", "409", "409"},
	{"alteracoes_solicitadas", true, "schedule", "403", "409", "409"},
	{"alteracoes_solicitadas", true, "publish", "403", "409", "409"},
	{"alteracoes_solicitadas", true, "unpublish", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"alteracoes_solicitadas", true, "archive", "403", "arquivado", "arquivado"},
	{"alteracoes_solicitadas", true, "discard", "publicado", "publicado", "publicado"},

	{"aprovado", true, "submit", "409", "403", "409"},
	{"aprovado", true, "approve", "403", "409", "409"},
	{"aprovado", true, "request_changes", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"aprovado", true, "schedule", "403", "agendado", "agendado"},
	{"aprovado", true, "publish", "403", "publicado", "publicado"},
	{"aprovado", true, "unpublish", "403", "aprovado", "aprovado"},
	{"aprovado", true, "archive", "403", "arquivado", "arquivado"},
	{"aprovado", true, "discard", "publicado", "publicado", "publicado"},

	{"agendado", true, "submit", "409", "403", "409"},
	{"agendado", true, "approve", "403", "409", "409"},
	{"agendado", true, "request_changes", "403", "alteracoes_solicitadas", "alteracoes_solicitadas"},
	{"agendado", true, "schedule", "403", "agendado", "agendado"},
	{"agendado", true, "publish", "403", "publicado", "publicado"},
	{"agendado", true, "unpublish", "403", "agendado", "agendado"},
	{"agendado", true, "archive", "403", "arquivado", "arquivado"},
	{"agendado", true, "discard", "publicado", "publicado", "publicado"},

	{"publicado", true, "submit", "409", "403", "409"},
	{"publicado", true, "approve", "403", "409", "409"},
	{"publicado", true, "request_changes", "403", "409", "409"},
	{"publicado", true, "schedule", "403", "409", "409"},
	{"publicado", true, "publish", "403", "409", "409"},
	{"publicado", true, "unpublish", "403", "rascunho", "rascunho"},
	{"publicado", true, "archive", "403", "arquivado", "arquivado"},
	{"publicado", true, "discard", "409", "409", "409"},
}

func TestEveryStateActionAndRole(t *testing.T) {
	// The table covers every reachable state (arquivado is never published,
	// publicado always is) times every action, once.
	seen := map[string]bool{}
	for _, row := range expected {
		key := string(row.status) + "/" + map[bool]string{true: "pub", false: "unpub"}[row.published] + "/" + string(row.action)
		if seen[key] {
			t.Fatalf("row %s twice", key)
		}
		seen[key] = true
	}
	if want := 12 * len(editorial.Actions); len(seen) != want {
		t.Fatalf("table has %d rows, want %d", len(seen), want)
	}

	for _, row := range expected {
		it := editorial.Item{Status: row.status, Published: row.published}
		for i, role := range editorial.Roles {
			want := []string{row.editor, row.revisor, row.super}[i]
			move, err := editorial.Decide(it, row.action, []editorial.Role{role})
			name := string(row.status) + map[bool]string{true: "+publicado", false: ""}[row.published] + " " + string(row.action) + " by " + string(role)
			switch want {
			case "403", "409":
				code := map[string]string{"403": core.EFORBIDDEN, "409": core.ECONFLICT}[want]
				if core.ErrorCode(err) != code {
					t.Errorf("%s: got move %+v err %v, want %s", name, move, err, want)
					continue
				}
				if msg := core.ErrorMessage(err); !strings.HasSuffix(msg, ".") || strings.Contains(msg, "_") {
					t.Errorf("%s: message %q", name, msg)
				}
			default:
				if err != nil || string(move.To) != want || move.From != row.status || move.Action != row.action {
					t.Errorf("%s: got move %+v err %v, want → %s", name, move, err, want)
				}
			}
		}
	}
}

func TestMovesCarryTheirEffects(t *testing.T) {
	super := []editorial.Role{editorial.RoleSuperAdmin}
	cases := []struct {
		it      editorial.Item
		action  editorial.Action
		effect  content.Effect
		discard bool
	}{
		{editorial.Item{Status: content.StatusApproved}, editorial.ActionPublish, content.EffectPublish, false},
		{editorial.Item{Status: content.StatusScheduled, Published: true}, editorial.ActionPublish, content.EffectPublish, false},
		{editorial.Item{Status: content.StatusPublished, Published: true}, editorial.ActionUnpublish, content.EffectUnpublish, false},
		{editorial.Item{Status: content.StatusPublished, Published: true}, editorial.ActionArchive, content.EffectUnpublish, false},
		{editorial.Item{Status: content.StatusDraft}, editorial.ActionArchive, content.EffectNone, false},
		{editorial.Item{Status: content.StatusApproved}, editorial.ActionSchedule, content.EffectNone, false},
		{editorial.Item{Status: content.StatusDraft, Published: true}, editorial.ActionDiscard, content.EffectNone, true},
	}
	for _, c := range cases {
		m, err := editorial.Decide(c.it, c.action, super)
		if err != nil || m.Effect != c.effect || m.Discard != c.discard {
			t.Fatalf("%+v %s: %+v %v", c.it, c.action, m, err)
		}
	}
	m, _ := editorial.Decide(editorial.Item{Status: content.StatusApproved}, editorial.ActionPublish, super)
	tr := m.Transition("id", 7)
	if tr.ID != "id" || tr.Version != 7 || !slices.Equal(tr.From, []content.Status{content.StatusApproved}) || tr.To != content.StatusPublished {
		t.Fatalf("transition %+v", tr)
	}
}

func TestRolesCombineAndMessages(t *testing.T) {
	inReview := editorial.Item{Status: content.StatusInReview}
	both := []editorial.Role{editorial.RoleEditor, editorial.RoleRevisor}
	if m, err := editorial.Decide(inReview, editorial.ActionApprove, both); err != nil || m.To != content.StatusApproved {
		t.Fatalf("editor+revisor approving: %v", err)
	}
	if _, err := editorial.Decide(inReview, editorial.ActionApprove, nil); core.ErrorMessage(err) != "Seu perfil não permite aprovar conteúdos." {
		t.Fatalf("no roles: %v", err)
	}
	if _, err := editorial.Decide(inReview, editorial.ActionApprove, []editorial.Role{"user"}); core.ErrorCode(err) != core.EFORBIDDEN {
		t.Fatalf("a reader: %v", err)
	}
	_, err := editorial.Decide(editorial.Item{Status: content.StatusDraft}, editorial.ActionPublish, both)
	if core.ErrorMessage(err) != "Não é possível publicar um conteúdo em “Rascunho”." {
		t.Fatalf("publish a draft: %q", core.ErrorMessage(err))
	}
	_, err = editorial.Decide(editorial.Item{Status: content.StatusPublished, Published: true}, editorial.ActionDiscard, both)
	if core.ErrorMessage(err) != "Este conteúdo não tem alterações para descartar." {
		t.Fatalf("discard without changes: %q", core.ErrorMessage(err))
	}
	if _, err := editorial.Decide(inReview, "delete", both); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("unknown action: %v", err)
	}

	got := editorial.Available(editorial.Item{Status: content.StatusApproved, Published: true}, []editorial.Role{editorial.RoleRevisor})
	want := []editorial.Action{"request_changes", "schedule", "publish", "unpublish", "archive", "discard"}
	if !slices.Equal(got, want) {
		t.Fatalf("available %v, want %v", got, want)
	}
	labels := map[editorial.Action]string{}
	for _, a := range editorial.Actions {
		labels[a] = a.Label()
	}
	wantLabels := map[editorial.Action]string{"submit": "Enviar para revisão", "approve": "Aprovar", "request_changes": "Solicitar alterações",
		"schedule": "Agendar publicação", "publish": "Publicar agora", "unpublish": "Despublicar", "archive": "Arquivar", "discard": "Descartar alterações"}
	for a, l := range wantLabels {
		if labels[a] != l {
			t.Fatalf("label of %s: %q", a, labels[a])
		}
	}
}
