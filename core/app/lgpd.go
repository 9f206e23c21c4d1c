package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/ratelimit"
	"github.com/vetclube/vetclube/workflows"
)

// buildLGPD wires the member's data (core/lgpd): one registry where every
// owning package exports and erases its own tables, the export ZIPs in the
// private store, the sign-in hook that cancels a deletion in its grace, and
// the workflows (their own worker) when Temporal is on; without Temporal,
// exports are built in the background and due deletions are swept every
// minute.
func (a *App) buildLGPD(cfg config.Config, pool *pgxpool.Pool, public, private media.Storage, log *slog.Logger) error {
	reg := lgpd.NewRegistry()
	svc := lgpd.New(pool, lgpd.Options{
		Registry:  reg,
		Store:     private,
		Mailer:    a.Auth.Mailer(),
		Accounts:  a.Auth,
		Notifier:  a.Engagement.Notifications,
		PublicURL: cfg.PublicURL,
		Log:       log,
	})
	a.LGPD = svc
	a.registerLGPDAreas(reg, pool, public)

	a.Auth.AddSignInHook(svc.OnSignIn)
	if c := a.Engagement.Temporal; c != nil {
		svc.SetWorkflows(workflows.LGPDEngine{Client: c})
		if cfg.TemporalWorker {
			w := workflows.NewLGPDWorker(c, &workflows.LGPDActivities{LGPD: svc})
			if err := w.Start(); err != nil {
				return fmt.Errorf("start lgpd worker: %w", err)
			}
			a.onClose(func() error { w.Stop(); return nil })
		}
		return nil
	}
	sweep, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-sweep.Done():
				return
			case <-time.After(time.Minute):
			}
			if n, err := svc.RunDueDeletions(sweep); err != nil && sweep.Err() == nil {
				log.Warn("run due account deletions", "deleted", n, "err", err)
			}
		}
	}()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}

// registerLGPDAreas lists every area of a member's data with the package
// that owns it. Erasers run in this order: outside services and files
// first, then what needs the account's e-mail or name, the account last
// (its rows cascade to everything tied to it).
func (a *App) registerLGPDAreas(reg *lgpd.Registry, pool *pgxpool.Pool, public media.Storage) {
	fn := func(f func(ctx context.Context, userID string) (any, error)) lgpd.Exporter {
		return lgpd.ExporterFunc(f)
	}
	reg.AddArea("conta", fn(a.Auth.ExportUserData))
	reg.AddArea("perfil", fn(a.Profiles.ExportUserData))
	reg.AddArea("publicacoes", fn(a.Content.Store.ExportUserData))
	reg.AddArea("imagens_das_publicacoes", fn(a.Community.ExportUserData))
	reg.AddArea("respostas_aceitas", fn(a.Community.ExportAcceptedAnswers))
	reg.AddArea("comentarios_e_interacoes", fn(a.Content.Engagement.ExportUserData))
	reg.AddArea("conexoes", fn(a.Connections.ExportUserData))
	reg.AddArea("cursos_e_certificados", fn(a.Courses.ExportUserData))
	reg.AddArea("videos", fn(a.Videos.ExportUserData))
	reg.AddArea("vetcoins", fn(a.Engagement.Points.ExportUserData))
	if a.Rewards != nil {
		reg.AddArea("recompensas", fn(a.Rewards.ExportUserData))
	}
	reg.AddArea("checkins", fn(a.Engagement.Checkin.ExportUserData))
	reg.AddArea("notificacoes", fn(a.Engagement.Notifications.ExportUserData))
	reg.AddArea("conversas_ia", fn(a.AI.ExportUserData))
	reg.AddArea("lembretes_das_ferramentas", fn(a.ToolSchedule.ExportUserData))
	reg.AddArea("assinatura", fn(a.Engagement.Subscriptions.ExportUserData))
	if a.Billing != nil {
		reg.AddArea("pagamentos", fn(a.Billing.ExportUserData))
	}
	if a.Eventos != nil && a.Eventos.Signups() != nil {
		reg.AddArea("eventos", fn(a.Eventos.Signups().ExportUserData))
	}
	if a.Jobs != nil {
		reg.AddArea("oportunidades", fn(a.Jobs.ExportUserData))
		reg.AddFiles("oportunidades", lgpd.FilesFunc(a.Jobs.ExportFiles))
	}
	if a.Challenges != nil {
		reg.AddArea("desafios", fn(a.Challenges.ExportUserData))
	}
	// The member's uploads: the avatar and the feed's pictures.
	reg.AddFiles("arquivos", lgpd.FilesFunc(func(ctx context.Context, userID string) ([]lgpd.File, error) {
		var out []lgpd.File
		if key, err := a.Profiles.AvatarKey(ctx, userID); err != nil {
			return nil, err
		} else if key != "" {
			if f, ok := readStored(public, key, "avatar"+path.Ext(key)); ok {
				out = append(out, f)
			}
		}
		keys, err := a.Community.UploadKeys(ctx, userID)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if f, ok := readStored(public, k.Key, "publicacoes/"+k.Name); ok {
				out = append(out, f)
			}
		}
		return out, nil
	}))
	// Each tool's own export (plugins' ExportUser hook).
	if a.Tools != nil {
		reg.AddFiles("ferramentas", lgpd.FilesFunc(a.Tools.ExportUserData))
	}

	er := func(f func(ctx context.Context, userID string) (int64, error)) lgpd.Eraser { return lgpd.EraserFunc(f) }
	if a.Billing != nil {
		reg.AddEraser("assinatura_stripe", er(a.Billing.EraseCustomer))
	}
	if a.Tools != nil {
		reg.AddEraser("ferramentas", er(a.Tools.DeleteUserData))
	}
	if a.Jobs != nil {
		reg.AddEraser("oportunidades", er(a.Jobs.EraseUserData))
	}
	if a.Challenges != nil {
		reg.AddEraser("desafios", er(a.Challenges.EraseUserData))
	}
	reg.AddEraser("arquivos_publicacoes", er(a.Community.EraseUploads))
	reg.AddEraser("lembretes_das_ferramentas", er(a.ToolSchedule.EraseUser))
	reg.AddEraser("avatar", er(a.Profiles.EraseAvatar))
	reg.AddEraser("exportacoes", er(a.LGPD.EraseExports))
	reg.AddEraser("vetcoins", er(a.Engagement.Points.Anonymise))
	if a.Rewards != nil {
		reg.AddEraser("recompensas", er(a.Rewards.Erase))
	}
	reg.AddEraser("notificacoes_de_outros", er(func(ctx context.Context, userID string) (int64, error) {
		name := a.Profiles.DisplayName(ctx, userID)
		if name == profiles.FallbackName {
			name = ""
		}
		return a.Engagement.Notifications.ScrubActor(ctx, userID, name)
	}))
	reg.AddEraser("eventos_ao_vivo", er(func(ctx context.Context, userID string) (int64, error) {
		name := a.Profiles.DisplayName(ctx, userID)
		if name == profiles.FallbackName {
			name = ""
		}
		return events.EraseMentions(ctx, pool, userID, name)
	}))
	reg.AddEraser("limites_de_uso", er(func(ctx context.Context, userID string) (int64, error) {
		email, _ := a.Auth.Email(ctx, userID)
		return ratelimit.EraseKeysNaming(ctx, pool, userID, email)
	}))
	reg.AddEraser("historico_editorial", er(func(ctx context.Context, userID string) (int64, error) {
		return editorial.EraseActor(ctx, pool, userID)
	}))
	reg.AddEraser("emails", er(func(ctx context.Context, userID string) (int64, error) {
		email, err := a.Auth.Email(ctx, userID)
		if err != nil || email == "" {
			return 0, nil //nolint:nilerr // the account is gone: nothing names it any more
		}
		return mail.EraseRecipient(ctx, pool, email)
	}))
	reg.AddEraser("conta", er(a.Auth.EraseAccount))
}

// readStored reads a stored file for an export; a file missing from the
// store is left out rather than failing the whole export.
func readStored(store media.Storage, key, name string) (lgpd.File, bool) {
	p, err := store.LocalPath(key)
	if err != nil {
		return lgpd.File{}, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return lgpd.File{}, false
	}
	return lgpd.File{Name: strings.TrimPrefix(name, "/"), Data: b}, true
}
