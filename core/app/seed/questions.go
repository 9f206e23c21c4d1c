package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/plugins/simulado-vet/bank"
)

// questionType is the Simulado Vet question bank's content type.
const questionType = "simulado-questoes"

// seedQuestions publishes the question bank written for the project when
// the simulado plugin is loaded: each question is created once (its
// idempotency key), submitted by the demo editor and approved and
// published by the demo reviewer, so the plugin receives each one through
// its publish hook as it would from the backoffice.
func (a demo) seedQuestions(ctx context.Context, editorID, revisorID string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get(questionType); !ok {
		return nil
	}
	qs, err := bank.Questions()
	if err != nil {
		return fmt.Errorf("question bank: %w", err)
	}
	editor := content.Actor{UserID: editorID, Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: revisorID, Channel: content.ChannelSystem}
	edRoles := []editorial.Role{editorial.RoleEditor}
	revRoles := []editorial.Role{editorial.RoleRevisor}
	created := 0
	for _, q := range qs {
		it, isNew, err := a.Content.Store.Create(ctx, editor, questionType,
			content.Input{Slug: strings.ReplaceAll(q.Key, "_", "-"), Title: q.Title(), Fields: q.Fields()}, "seed:simulado:"+q.Key)
		if err != nil {
			var ce *core.Error
			if errors.As(err, &ce) && len(ce.Fields) > 0 {
				return fmt.Errorf("question %s: %w %v", q.Key, err, ce.Fields)
			}
			return fmt.Errorf("question %s: %w", q.Key, err)
		}
		if !isNew {
			continue
		}
		created++
		for _, step := range []struct {
			actor  content.Actor
			roles  []editorial.Role
			action editorial.Action
		}{{editor, edRoles, editorial.ActionSubmit}, {revisor, revRoles, editorial.ActionApprove}, {revisor, revRoles, editorial.ActionPublish}} {
			if it, err = a.Content.Workflow.Act(ctx, step.actor, step.roles, it.ID, it.Version, step.action, ""); err != nil {
				return fmt.Errorf("question %s: %s: %w", q.Key, step.action, err)
			}
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d questões do Simulado Vet publicadas\n", created)
	}
	return nil
}
