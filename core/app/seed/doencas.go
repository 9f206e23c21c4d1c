package seed

import (
	"context"
	"fmt"
	"io"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/plugins/doencas/data"
)

// seedDiseases publishes the first edition of the diseases reference
// (plugins/doencas/data) when the doencas plugin is loaded (its type
// registered): each disease is created once (its idempotency key) by the
// demo editor and moved through the real workflow to publication by the
// demo reviewer, so the plugin's AfterPublish fills the tool's search.
func (a demo) seedDiseases(ctx context.Context, editorID, revisorID string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get("doencas"); !ok {
		return nil
	}
	all, err := data.All()
	if err != nil {
		return err
	}
	editor := content.Actor{UserID: editorID, Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: revisorID, Channel: content.ChannelSystem}
	edRoles := []editorial.Role{editorial.RoleEditor}
	revRoles := []editorial.Role{editorial.RoleRevisor}
	wf := a.Content.Workflow
	created := 0
	for _, d := range all {
		it, isNew, err := a.Content.Store.Create(ctx, editor, "doencas",
			content.Input{Slug: d.Slug, Title: d.Title, Summary: d.Summary, Fields: d.Fields()}, "seed:doencas:"+d.Slug)
		if err != nil {
			return fmt.Errorf("disease %s: %w", d.Slug, err)
		}
		if !isNew {
			continue
		}
		created++
		it, err = wf.Act(ctx, editor, edRoles, it.ID, it.Version, editorial.ActionSubmit, "")
		if err == nil {
			it, err = wf.Act(ctx, revisor, revRoles, it.ID, it.Version, editorial.ActionApprove, "")
		}
		if err == nil {
			_, err = wf.Act(ctx, revisor, revRoles, it.ID, it.Version, editorial.ActionPublish, "")
		}
		if err != nil {
			return fmt.Errorf("publish disease %s: %w", d.Slug, err)
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d doenças publicadas na referência de doenças\n", created)
	}
	return nil
}
