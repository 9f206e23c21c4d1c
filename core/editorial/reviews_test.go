package editorial_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/notifications"
)

func TestReviewAssignmentCommentsAndNotifications(t *testing.T) {
	ctx := context.Background()
	store, pool := newsStore(t)
	authorID, reviewerID, adminID, outsiderID := newUser(t, pool), newUser(t, pool), newUser(t, pool), newUser(t, pool)
	reviewers := []string{reviewerID, adminID}
	reviews := editorial.NewReviews(pool, func(_ context.Context, id string) (bool, error) {
		return slices.Contains(reviewers, id), nil
	}, nil)
	notes := notifications.New(pool)
	wf := editorial.New(store, editorial.Options{Reviews: reviews, Notify: editorial.NotifyWith(notes)})
	author := content.Actor{UserID: authorID, Channel: content.ChannelBackoffice}
	reviewer := content.Actor{UserID: reviewerID, Channel: content.ChannelBackoffice}
	admin := content.Actor{UserID: adminID, Channel: content.ChannelBackoffice}
	eRoles, rRoles, sRoles := []editorial.Role{editorial.RoleEditor}, []editorial.Role{editorial.RoleRevisor}, []editorial.Role{editorial.RoleSuperAdmin}

	it, _, err := store.Create(ctx, author, "noticias", content.Input{Title: "Raiva em morcegos", Fields: map[string]any{"body": "Texto."}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reviews.Assign(ctx, content.Actor{UserID: outsiderID, Channel: content.ChannelBackoffice}, nil, it.ID, reviewerID); core.ErrorCode(err) != core.EFORBIDDEN {
		t.Fatalf("assign without a workflow role: %v", err)
	}
	if _, err := reviews.Assign(ctx, author, eRoles, it.ID, outsiderID); core.ErrorCode(err) != core.EINVALID || core.ErrorMessage(err) != editorial.MsgNotAReviewer {
		t.Fatalf("assign a non-reviewer: %v", err)
	}
	if _, err := reviews.Assign(ctx, author, eRoles, it.ID, adminID); err != nil {
		t.Fatal(err)
	}
	if _, err := reviews.Assign(ctx, author, eRoles, it.ID, reviewerID); err != nil {
		t.Fatal(err)
	}
	if got, _ := reviews.Assignee(ctx, it.ID); got != reviewerID {
		t.Fatalf("assignee %q", got)
	}

	act := func(a content.Actor, roles []editorial.Role, action editorial.Action, reason string) {
		t.Helper()
		next, err := wf.Act(ctx, a, roles, it.ID, it.Version, action, reason)
		if err != nil {
			t.Fatalf("%s: %v", action, err)
		}
		it = next
	}
	act(author, eRoles, editorial.ActionSubmit, "")
	c1, err := reviews.AddComment(ctx, reviewer, rRoles, it.ID, "  O título precisa citar o estado.  ")
	if err != nil || c1.Revision != it.Version || c1.Body != "O título precisa citar o estado." {
		t.Fatalf("comment: %+v %v", c1, err)
	}
	if _, err := reviews.AddComment(ctx, reviewer, rRoles, it.ID, "   "); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("empty comment: %v", err)
	}
	act(reviewer, rRoles, editorial.ActionRequestChanges, "Cite o estado no título.")
	if it, err = store.Update(ctx, author, it.ID, it.Version, content.Input{Title: "Raiva em morcegos em SP", Fields: map[string]any{"body": "Texto."}}); err != nil {
		t.Fatal(err)
	}
	if _, err := reviews.AddComment(ctx, author, eRoles, it.ID, "Corrigido."); err != nil {
		t.Fatal(err)
	}
	act(author, eRoles, editorial.ActionSubmit, "")
	act(reviewer, rRoles, editorial.ActionApprove, "")
	act(admin, sRoles, editorial.ActionPublish, "")

	all, err := reviews.Comments(ctx, it.ID, 0)
	if err != nil || len(all) != 2 || all[1].Body != "Corrigido." || all[1].Revision <= all[0].Revision {
		t.Fatalf("comments: %+v %v", all, err)
	}
	if first, _ := reviews.Comments(ctx, it.ID, c1.Revision); len(first) != 1 || first[0].ID != c1.ID {
		t.Fatalf("comments on revision %d: %+v", c1.Revision, first)
	}

	messages := func(user string) []string {
		t.Helper()
		list, err := notes.List(ctx, user, 50)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for i := len(list) - 1; i >= 0; i-- { // oldest first
			out = append(out, list[i].Title+": "+list[i].Message)
		}
		return out
	}
	wantAuthor := []string{
		"Alterações solicitadas: Foram pedidas alterações em “Raiva em morcegos”: Cite o estado no título.",
		"Conteúdo aprovado: “Raiva em morcegos em SP” foi aprovado.",
		"Conteúdo publicado: “Raiva em morcegos em SP” foi publicado.",
	}
	wantReviewer := []string{
		"Conteúdo para revisar: “Raiva em morcegos” foi enviado para revisão.",
		"Conteúdo para revisar: “Raiva em morcegos em SP” foi enviado para revisão.",
		"Conteúdo publicado: “Raiva em morcegos em SP” foi publicado.",
	}
	if got := messages(authorID); !slices.Equal(got, wantAuthor) {
		t.Fatalf("author's notifications:\n%q\nwant\n%q", got, wantAuthor)
	}
	if got := messages(reviewerID); !slices.Equal(got, wantReviewer) {
		t.Fatalf("reviewer's notifications:\n%q\nwant\n%q", got, wantReviewer)
	}
	if got := messages(adminID); len(got) != 0 {
		t.Fatalf("the publisher was notified of their own act: %q", got)
	}
}
