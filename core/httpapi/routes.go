package httpapi

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/toolfiles"

	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/roles"
	"github.com/vetclube/vetclube/core/subscriptions"
)

// ContentDeps is the content platform (core/app builds it): public reads,
// readers' engagement, the backoffice and preview links.
type ContentDeps struct {
	Store      *content.Store
	Engagement *engagement.Service
	Editorial  editorial.HTTP
	Previews   *content.Previews
	Uploads    *content.Uploads
	// Access decides, per type served through its own API (videos, course
	// lessons), whether userID ("" for a visitor) may read and engage with
	// item idOrSlug through the generic engagement and comment routes, by
	// the owning feature's own rule; it answers the item id or the refusal.
	// An own-API type without an entry is not reachable through them.
	Access map[string]func(ctx context.Context, idOrSlug, userID string) (string, error)
}

// addRoutes lists every route of the API. Each one passes through its casbin
// policy (core/authz/policy.csv), is documented in openapi.json, and has a row
// in the authorisation matrix test; tests fail when any of the three is missing.
func addRoutes(rt *router, d Deps) {
	// Platform
	rt.handle("GET", "/healthz", handleHealthz())
	rt.handle("GET", "/readyz", handleReadyz(d.Pool, d.Draining))
	rt.handle("GET", "/livez", handleHealthz())
	rt.handle("GET", "/api/openapi.json", handleOpenAPI())

	// Accounts and sessions (core/auth)
	rt.handle("POST", "/api/auth/signup", auth.HandleSignup(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/confirm", auth.HandleConfirm(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/confirm/resend", auth.HandleResendConfirmation(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/login", auth.HandleLogin(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/session", auth.HandleSession(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/refresh", auth.HandleRefresh(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/logout", auth.HandleLogout(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/sessions", auth.HandleListSessions(d.Log, d.Auth))
	rt.handle("DELETE", "/api/auth/sessions/{id}", auth.HandleRevokeSession(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/password/forgot", auth.HandleForgotPassword(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/password/reset", auth.HandleResetPassword(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/providers", auth.HandleProviders(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/google/start", auth.HandleGoogleStart(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/google/callback", auth.HandleGoogleCallback(d.Log, d.Auth))
	// Two-step verification (TOTP).
	rt.handle("POST", "/api/auth/two-step/verify", auth.HandleTwoStepVerify(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/two-step", auth.HandleTwoStepStatus(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/two-step/totp", auth.HandleTOTPBegin(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/two-step/totp/confirm", auth.HandleTOTPConfirm(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/two-step/totp/disable", auth.HandleTOTPDisable(d.Log, d.Auth))
	// Sign-in with a code by e-mail.
	rt.handle("POST", "/api/auth/code", auth.HandleLoginCodeRequest(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/code/verify", auth.HandleLoginCode(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/password/change", auth.HandleChangePassword(d.Log, d.Auth))
	// Development mailbox (core/mail): registered only when APP_ENV=development.
	if d.Mailbox != nil {
		rt.handle("GET", "/api/dev/mailbox", mail.HandleListJSON(d.Log, d.Mailbox))
		rt.handle("GET", "/dev/mailbox", mail.HandlePage(d.Log, d.Mailbox))
	}

	// Profiles: the own-profile routes act on the signed-in user only.
	rt.handle("GET", "/api/profile", profiles.HandleGetOwn(d.Log, d.Profiles))
	rt.handle("PUT", "/api/profile", profiles.HandleUpdateOwn(d.Log, d.Profiles))
	rt.handle("GET", "/api/profile/completeness", profiles.HandleCompleteness(d.Log, d.Profiles))
	rt.handle("POST", "/api/profile/avatar", profiles.HandleAvatar(d.Log, d.Profiles))
	rt.handle("GET", "/api/profiles/{id}", profiles.HandlePublic(d.Log, d.Profiles))
	rt.handle("GET", "/api/specialties", profiles.HandleSpecialties(d.Log))
	rt.handle("GET", "/uploads/*", d.Uploads)

	// Tools: plugins (core/pluginhost); premium tools are refused inside the
	// handler by the casbin capability tool:premium, so they can be listed.
	rt.handle("GET", "/api/tools", pluginhost.HandleList(d.Log, d.Tools, d.Authz))
	rt.handle("GET", "/api/dashboard/cards", pluginhost.HandleCards(d.Log, d.Tools))
	// Offline builds of form tools (bin/plugins/<id>.offline.wasm): the PWA
	// computes with them when there is no network.
	rt.handle("GET", "/api/tools/{id}/offline.wasm", pluginhost.HandleOfflineWasm(d.Log, d.Tools, d.Authz))
	rt.handle("GET", "/api/tools/offline/wasm_exec.js", pluginhost.HandleWasmExec(d.Log, d.Tools))
	for _, method := range []string{"GET", "POST", "PUT", "DELETE"} {
		rt.handle(method, "/api/tools/{id}/*", pluginhost.HandleCall(d.Log, d.Tools, d.Authz))
	}
	// Members' files for a tool (core/toolfiles): owner only; plugins read
	// them through the host API.
	if d.ToolFiles != nil {
		gate := pluginhost.FilesGate(d.Tools, d.Authz)
		rt.handle("POST", "/api/tools/{id}/files", toolfiles.HandleUpload(d.Log, d.ToolFiles, gate))
		rt.handle("GET", "/api/tools/{id}/files", toolfiles.HandleList(d.Log, d.ToolFiles, gate))
		rt.handle("GET", "/api/tools/{id}/files/{fileId}", toolfiles.HandleGet(d.Log, d.ToolFiles, gate))
		rt.handle("DELETE", "/api/tools/{id}/files/{fileId}", toolfiles.HandleDelete(d.Log, d.ToolFiles, gate))
	}

	// VetCoins, daily check-in, subscription and live events
	rt.handle("GET", "/api/points/balance", points.HandleBalance(d.Log, d.Points))
	rt.handle("GET", "/api/points/history", points.HandleFilteredHistory(d.Log, d.Points))
	rt.handle("GET", "/api/checkin", checkin.HandleGet(d.Log, d.Checkin))
	rt.handle("POST", "/api/checkin", checkin.HandleCheckIn(d.Log, d.Checkin))
	rt.handle("POST", "/api/checkin/reset", checkin.HandleReset(d.Log, d.Checkin))
	rt.handle("GET", "/api/subscription", subscriptions.HandleView(d.Log, d.Subscriptions))
	rt.handle("GET", "/api/subscription/limits/{limitType}", subscriptions.HandleLimits(d.Log, d.Subscriptions))
	rt.handle("GET", "/api/notifications", notifications.HandleList(d.Log, d.Notifications))
	rt.handle("GET", "/api/events", events.HandleStream(d.Log, d.Events, d.Pool))

	// Notifications and Web Push (core/notifications, core/push): the
	// caller's own rows and devices only.
	rt.handle("POST", "/api/notifications/{id}/read", notifications.HandleMarkRead(d.Log, d.Notifications))
	rt.handle("POST", "/api/notifications/read-all", notifications.HandleMarkAllRead(d.Log, d.Notifications))
	rt.handle("DELETE", "/api/notifications/{id}", notifications.HandleDelete(d.Log, d.Notifications))
	rt.handle("DELETE", "/api/notifications", notifications.HandleDeleteAll(d.Log, d.Notifications))
	rt.handle("GET", "/api/notifications/preferences", notifications.HandleGetPreferences(d.Log, d.Notifications))
	rt.handle("PUT", "/api/notifications/preferences", notifications.HandlePutPreferences(d.Log, d.Notifications))
	rt.handle("GET", "/api/push/vapid-key", push.HandleVAPIDKey(d.Log, d.Push))
	rt.handle("GET", "/api/push/subscriptions", push.HandleListSubscriptions(d.Log, d.Push))
	rt.handle("POST", "/api/push/subscriptions", push.HandleSubscribe(d.Log, d.Push))
	rt.handle("POST", "/api/push/subscriptions/unsubscribe", push.HandleUnsubscribe(d.Log, d.Push))
	rt.handle("POST", "/api/push/test", push.HandleTest(d.Log, d.Push))
	rt.handle("GET", "/api/push/deliveries", push.HandleDeliveries(d.Log, d.Push))

	// VetClube IA (core/ai): the member's own conversations only; the
	// answer to a question streams as server-sent events.
	if h := d.AI; h != nil && h.Service != nil {
		rt.handle("GET", "/api/ai/status", h.Status())
		rt.handle("POST", "/api/ai/disclaimer", h.AcceptDisclaimer())
		rt.handle("GET", "/api/ai/conversations", h.List())
		rt.handle("POST", "/api/ai/conversations", h.Create())
		rt.handle("GET", "/api/ai/conversations/{id}", h.Get())
		rt.handle("PATCH", "/api/ai/conversations/{id}", h.Rename())
		rt.handle("DELETE", "/api/ai/conversations/{id}", h.Delete())
		rt.handle("POST", "/api/ai/conversations/{id}/messages", h.Ask())
		rt.handle("POST", "/api/ai/messages/{id}/report", h.Report())
		rt.handle("GET", "/api/admin/ai/overview", h.AdminOverview())
	}

	// Connections and blocks (core/connections): the caller's own, signed in.
	conn := connections.HTTP{Service: d.Connections, Log: d.Log}
	rt.handle("GET", "/api/connections", conn.List())
	rt.handle("POST", "/api/connections", conn.Request())
	rt.handle("GET", "/api/connections/suggestions", conn.Suggestions())
	rt.handle("GET", "/api/connections/status/{userId}", conn.Status())
	rt.handle("GET", "/api/connections/mutual/{userId}", conn.Mutual())
	rt.handle("POST", "/api/connections/{id}/accept", conn.Accept())
	rt.handle("POST", "/api/connections/{id}/reject", conn.Reject())
	rt.handle("DELETE", "/api/connections/{id}", conn.Delete())
	rt.handle("GET", "/api/blocks", conn.Blocked())
	rt.handle("POST", "/api/blocks", conn.Block())
	rt.handle("DELETE", "/api/blocks/{userId}", conn.Unblock())

	// Backoffice
	rt.handle("GET", "/api/admin/users", roles.HandleListUsers(d.Log, d.Roles))
	// Plugins and the confinement each process runs under (core/pluginhost).
	rt.handle("GET", "/api/admin/plugins", pluginhost.HandleAdminList(d.Log, d.Tools))
	rt.handle("GET", "/api/admin/team", roles.HandleTeam(d.Log, d.Roles))
	rt.handle("GET", "/api/admin/users/{id}", roles.HandleGetUser(d.Log, d.Roles))
	rt.handle("GET", "/api/admin/users/{id}/role-changes", roles.HandleRoleChanges(d.Log, d.Roles))
	rt.handle("POST", "/api/admin/users/{id}/roles/{role}", roles.HandleGrantRole(d.Log, d.Roles))
	rt.handle("DELETE", "/api/admin/users/{id}/roles/{role}", roles.HandleRevokeRole(d.Log, d.Roles))

	if d.Content.Store != nil {
		addContentRoutes(rt, d)
	}

	// Events (core/eventos): lists, the home card, the event page, .ics,
	// seats and the waiting list.
	if ev := d.Eventos; ev != nil && ev.Service != nil {
		rt.handle("GET", "/api/eventos", ev.List())
		rt.handle("GET", "/api/eventos/next", ev.Next())
		rt.handle("GET", "/api/eventos/{idOrSlug}", ev.Get())
		rt.handle("GET", "/api/eventos/{idOrSlug}/calendar.ics", ev.Calendar())
		rt.handle("PUT", "/api/eventos/{idOrSlug}/participation", ev.Join())
		rt.handle("DELETE", "/api/eventos/{idOrSlug}/participation", ev.Leave())
		rt.handle("PUT", "/api/eventos/{idOrSlug}/waitlist", ev.Wait())
	}

	// Oportunidades (core/jobs): the jobs list and page, saved jobs,
	// applications with a CV, saved searches with alerts; the backoffice's
	// applications per job (to the people who manage each job) and recruiters.
	if jb := d.Jobs; jb != nil && jb.Service != nil {
		rt.handle("GET", "/api/vagas", jb.List())
		rt.handle("GET", "/api/vagas/salvas", jb.Saved())
		rt.handle("GET", "/api/vagas/candidaturas", jb.Mine())
		rt.handle("GET", "/api/vagas/candidaturas/{id}/curriculo", jb.CV())
		rt.handle("GET", "/api/vagas/buscas", jb.Searches())
		rt.handle("POST", "/api/vagas/buscas", jb.SaveSearch())
		rt.handle("PUT", "/api/vagas/buscas/{id}/alertas", jb.SetAlerts())
		rt.handle("DELETE", "/api/vagas/buscas/{id}", jb.DeleteSearch())
		rt.handle("GET", "/api/vagas/{idOrSlug}", jb.Get())
		rt.handle("PUT", "/api/vagas/{idOrSlug}/salva", jb.Save())
		rt.handle("DELETE", "/api/vagas/{idOrSlug}/salva", jb.Unsave())
		rt.handle("POST", "/api/vagas/{idOrSlug}/candidatura", jb.Apply())
		rt.handle("GET", "/api/admin/vagas", jb.Managed())
		rt.handle("GET", "/api/admin/vagas/{id}/candidaturas", jb.Applications())
		rt.handle("PUT", "/api/admin/vagas/candidaturas/{id}", jb.SetStatus())
		rt.handle("GET", "/api/admin/vagas/{id}/recrutadores", jb.Recruiters())
		rt.handle("POST", "/api/admin/vagas/{id}/recrutadores", jb.AddRecruiter())
		rt.handle("DELETE", "/api/admin/vagas/{id}/recrutadores/{userId}", jb.RemoveRecruiter())
	}
	// Challenges (core/challenges): lists, ranking, badges, the challenge
	// page, answers saved as the member goes and the one submission.
	if ch := d.Challenges; ch != nil && ch.Service != nil {
		rt.handle("GET", "/api/desafios", ch.List())
		rt.handle("GET", "/api/desafios/ranking", ch.Ranking())
		rt.handle("GET", "/api/desafios/medalhas", ch.Badges())
		rt.handle("GET", "/api/desafios/{idOrSlug}", ch.Get())
		rt.handle("PUT", "/api/desafios/{idOrSlug}/respostas", ch.Save())
		rt.handle("POST", "/api/desafios/{idOrSlug}/envio", ch.Submit())
	}

	// Courses (core/courses): the catalogue, the course and lesson pages,
	// enrolment, favorites, progress, certificates (the public check open to
	// visitors) and the backoffice statistics.
	if cs := d.Courses; cs != nil && cs.Service != nil {
		rt.handle("GET", "/api/cursos", cs.List())
		rt.handle("GET", "/api/cursos/filtros", cs.Filters())
		rt.handle("GET", "/api/cursos/estatisticas", cs.Statistics())
		rt.handle("GET", "/api/cursos/ultimo", cs.Last())
		rt.handle("GET", "/api/cursos/{idOrSlug}", cs.Detail())
		rt.handle("POST", "/api/cursos/{idOrSlug}/matricula", cs.Enrol())
		rt.handle("POST", "/api/cursos/{idOrSlug}/favorito", cs.Favorite())
		rt.handle("GET", "/api/cursos/{idOrSlug}/aulas/{lessonId}", cs.Lesson())
		rt.handle("PUT", "/api/cursos/{idOrSlug}/aulas/{lessonId}/progresso", cs.Progress())
		rt.handle("POST", "/api/cursos/{idOrSlug}/aulas/{lessonId}/concluir", cs.Complete())
		rt.handle("GET", "/api/me/certificados", cs.MyCertificates())
		rt.handle("GET", "/api/certificados/{code}", cs.Verify())
		rt.handle("GET", "/api/certificados/{code}/imprimir", cs.Printable())
		rt.handle("GET", "/api/certificados/{code}/pdf", cs.PDF())
		rt.handle("POST", "/api/admin/certificados/{code}/revogar", cs.Revoke())
		rt.handle("GET", "/api/admin/courses/{id}/stats", cs.Stats())
	}

	// Exclusive videos (core/videos): the list, categories, statistics, the
	// home card, the player, progress, views, likes, favorites, completion.
	if vs := d.Videos; vs != nil && vs.Service != nil {
		rt.handle("GET", "/api/videos", vs.List())
		rt.handle("GET", "/api/videos/categorias", vs.Categories())
		rt.handle("GET", "/api/videos/estatisticas", vs.Statistics())
		rt.handle("GET", "/api/videos/ultimo", vs.Latest())
		rt.handle("GET", "/api/videos/{idOrSlug}", vs.Detail())
		rt.handle("PUT", "/api/videos/{idOrSlug}/progresso", vs.Progress())
		rt.handle("POST", "/api/videos/{idOrSlug}/visualizacao", vs.View())
		rt.handle("POST", "/api/videos/{idOrSlug}/curtida", vs.Like())
		rt.handle("POST", "/api/videos/{idOrSlug}/favorito", vs.Favorite())
		rt.handle("PUT", "/api/videos/{idOrSlug}/concluido", vs.Complete())
	}

	// Community posts (core/community): the feed, a post, pictures and
	// likes, as the signed-in member; edit, delete and the accepted answer
	// are the author's (or, for delete, a moderator's), decided in the
	// handlers.
	if cm := d.Community; cm != nil && cm.Service != nil {
		rt.handle("GET", "/api/community/feed", cm.Feed())
		rt.handle("POST", "/api/community/uploads", cm.Upload())
		rt.handle("POST", "/api/community/posts", cm.Create())
		rt.handle("GET", "/api/community/posts/{id}", cm.Get())
		rt.handle("PUT", "/api/community/posts/{id}", cm.Update())
		rt.handle("DELETE", "/api/community/posts/{id}", cm.Delete())
		rt.handle("PUT", "/api/community/posts/{id}/like", cm.Like(true))
		rt.handle("DELETE", "/api/community/posts/{id}/like", cm.Like(false))
		rt.handle("PUT", "/api/community/posts/{id}/resposta-aceita", cm.AcceptAnswer(true))
		rt.handle("DELETE", "/api/community/posts/{id}/resposta-aceita", cm.AcceptAnswer(false))
	}

	// Media library (core/media): resumable tus uploads and the library's
	// admin API, for the staff who edit content.
	if md := d.Media; md != nil && md.Service != nil {
		// GET answers an upload's asset; HEAD (tus's offset) follows it.
		for _, method := range []string{"POST", "GET", "PATCH", "DELETE"} {
			rt.handle(method, media.UploadsPath+"*", md.Upload)
		}
		rt.handle("GET", "/api/admin/media", md.List())
		rt.handle("GET", "/api/admin/media/{id}", md.Get())
		rt.handle("POST", "/api/admin/media/{id}/retry", md.Retry())
		rt.handle("POST", "/api/admin/media/{id}/cancel", md.Cancel())
		rt.handle("DELETE", "/api/admin/media/{id}", md.Delete())
		// Protected files (streams, documents) by signed address: the
		// token is the permission, handed out by the owning feature.
		rt.handle("GET", media.StreamPath+"*", md.Stream())
	}

	// Reports and the moderation queue (core/moderation): any member
	// reports; moderators and super admins decide.
	if m := d.Moderation; m != nil && m.Service != nil {
		rt.handle("POST", "/api/reports", m.Report())
		rt.handle("GET", "/api/admin/moderation", m.Queue())
		rt.handle("GET", "/api/admin/moderation/{id}", m.Get())
		rt.handle("POST", "/api/admin/moderation/{target_type}/{target_id}/{action}", m.Act())
	}

	// Referrals, "Indique e ganhe" (core/referrals): the member's dashboard,
	// click tracking (visitors), the Google sign-up binding, and the
	// backoffice's review queue, numbers and settings (super admins).
	if rf := d.Referrals; rf != nil && rf.Service != nil {
		rt.handle("GET", "/api/referrals/me", rf.Me())
		rt.handle("GET", "/api/referrals/me/qr.svg", rf.QR())
		rt.handle("POST", "/api/referrals/click", rf.Click())
		rt.handle("POST", "/api/referrals/process-signup", rf.ProcessSignup())
		rt.handle("GET", "/api/admin/referrals", rf.AdminList())
		rt.handle("GET", "/api/admin/referrals/{id}", rf.AdminGet())
		rt.handle("POST", "/api/admin/referrals/{id}/review", rf.AdminReview())
		rt.handle("GET", "/api/admin/referral-stats", rf.AdminStats())
		rt.handle("GET", "/api/admin/referral-settings", rf.AdminSettings())
		rt.handle("PUT", "/api/admin/referral-settings", rf.AdminUpdateSettings())
	}

	// The VetCoins shop (core/rewards): the member's catalogue, redeeming
	// and their redemptions; the backoffice's catalogue, voucher lists,
	// redemptions and refunds (super admins).
	if rw := d.Rewards; rw != nil && rw.Service != nil {
		rt.handle("GET", "/api/rewards", rw.Shop())
		rt.handle("POST", "/api/rewards/{id}/redeem", rw.Redeem())
		rt.handle("GET", "/api/rewards/redemptions", rw.Mine())
		rt.handle("GET", "/api/admin/rewards", rw.AdminList())
		rt.handle("POST", "/api/admin/rewards", rw.AdminCreate())
		rt.handle("GET", "/api/admin/rewards/{id}", rw.AdminGet())
		rt.handle("PUT", "/api/admin/rewards/{id}", rw.AdminUpdate())
		rt.handle("POST", "/api/admin/rewards/{id}/vouchers", rw.AdminUploadVouchers())
		rt.handle("GET", "/api/admin/reward-redemptions", rw.AdminRedemptions())
		rt.handle("POST", "/api/admin/reward-redemptions/{id}/refund", rw.AdminRefund())
	}

	// The member's data (core/lgpd): "Exportar meus dados" and "Excluir
	// minha conta" act on the signed-in member only; the request list is
	// the super admins'.
	if h := d.LGPD; h != nil && h.Service != nil {
		rt.handle("GET", "/api/me/data", h.Get())
		rt.handle("POST", "/api/me/data-exports", h.RequestExport())
		rt.handle("GET", "/api/me/data-exports/{id}/download", h.Download())
		rt.handle("POST", "/api/me/account-deletion/code", h.SendCode())
		rt.handle("POST", "/api/me/account-deletion", h.RequestDeletion())
		rt.handle("DELETE", "/api/me/account-deletion", h.CancelDeletion())
		rt.handle("GET", "/api/admin/lgpd-requests", h.AdminList())
	}

	// Billing (core/billing): plans, checkout, the customer portal, the
	// member's subscription and payments, Stripe's webhook (its signature is
	// the permission) and the billing backoffice (super admins).
	if b := d.Billing; b != nil && b.Service != nil {
		rt.handle("GET", "/api/billing/plans", b.Plans())
		rt.handle("POST", "/api/billing/checkout", b.Checkout())
		rt.handle("POST", "/api/billing/portal", b.Portal())
		rt.handle("POST", "/api/billing/check", b.Check())
		rt.handle("POST", "/api/billing/sync", b.Sync())
		rt.handle("GET", "/api/billing/subscription", b.Subscription())
		rt.handle("GET", "/api/billing/payments", b.Payments())
		rt.handle("GET", "/api/billing/diagnostics", b.Diagnostics())
		rt.handle("POST", "/api/billing/webhook", b.Webhook())
		rt.handle("GET", "/api/admin/billing/subscriptions", b.AdminSubscriptions())
		rt.handle("GET", "/api/admin/billing/subscriptions/{user_id}/timeline", b.AdminTimeline())
		rt.handle("GET", "/api/admin/billing/metrics", b.AdminMetrics())
		rt.handle("GET", "/api/admin/billing/events", b.AdminEvents())
		rt.handle("POST", "/api/admin/billing/events/{id}/reprocess", b.AdminReprocess())
	}

	// Passkeys, e-mail change, recovery codes (core/auth) and the build the
	// debug page shows.
	rt.handle("GET", "/api/auth/passkeys", auth.HandleListPasskeys(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/passkey/register", auth.HandlePasskeyRegisterBegin(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/passkeys", auth.HandlePasskeyRegisterFinish(d.Log, d.Auth))
	rt.handle("PATCH", "/api/auth/passkeys/{id}", auth.HandleRenamePasskey(d.Log, d.Auth))
	rt.handle("DELETE", "/api/auth/passkeys/{id}", auth.HandleRemovePasskey(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/passkey/login", auth.HandlePasskeyLoginBegin(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/passkey/login/verify", auth.HandlePasskeyLogin(d.Log, d.Auth))
	rt.handle("GET", "/api/auth/email", auth.HandleEmailSettings(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/email/change", auth.HandleEmailChange(d.Log, d.Auth))
	rt.handle("DELETE", "/api/auth/email/change", auth.HandleEmailChangeCancel(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/email/confirm", auth.HandleEmailConfirm(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/email/undo", auth.HandleEmailUndo(d.Log, d.Auth))
	rt.handle("POST", "/api/auth/two-step/recovery-codes", auth.HandleRecoveryRegenerate(d.Log, d.Auth))
	rt.handle("GET", "/api/version", handleVersion())
}

// addContentRoutes registers the content platform: public lists and details,
// readers' engagement (signed-in, idempotent), preview links and the
// backoffice (editors, revisors, super admins; the workflow decides which
// action each may take).
func addContentRoutes(rt *router, d Deps) {
	c := d.Content
	rt.handle("GET", "/api/content/types", content.HandleTypes(d.Log, c.Store))
	rt.handle("GET", "/api/content/{type}", content.HandleList(d.Log, c.Store))
	rt.handle("GET", "/api/content/{type}/{idOrSlug}", content.HandleGet(d.Log, c.Store))
	rt.handle("GET", "/api/preview/{token}", content.HandlePreview(d.Log, c.Store, c.Previews))

	// The generic routes reach an item of a type served through its own API
	// only through that feature's access rule (a premium video's comments
	// and reactions are for members with access); other types are public.
	engageable := func(ctx context.Context, typeID, id string) (string, error) {
		if c.Store.Types().OwnAPI(typeID) {
			check, ok := c.Access[typeID]
			if !ok {
				return "", core.Errorf(core.ENOTFOUND, engagement.MsgItemNotFound)
			}
			return check(ctx, id, core.PrincipalFrom(ctx).UserID)
		}
		it, err := c.Store.GetPublished(ctx, typeID, id, "")
		return it.ID, err
	}
	eng := engagement.HTTP{Service: c.Engagement, Log: d.Log, Resolve: engageable}
	rt.handle("PUT", "/api/content/{type}/{idOrSlug}/favorite", eng.Favorite(true))
	rt.handle("DELETE", "/api/content/{type}/{idOrSlug}/favorite", eng.Favorite(false))
	rt.handle("PUT", "/api/content/{type}/{idOrSlug}/reaction", eng.Reaction())
	rt.handle("POST", "/api/content/{type}/{idOrSlug}/view", eng.View())
	// Progress and enrolment of a type that serves its own API (a course's
	// lessons) go through that API, which applies its access rules and
	// awards; the generic routes would bypass both, so they do not know it.
	own := eng
	own.Resolve = func(ctx context.Context, typeID, id string) (string, error) {
		if c.Store.Types().OwnAPI(typeID) {
			return "", core.Errorf(core.ENOTFOUND, engagement.MsgItemNotFound)
		}
		return eng.Resolve(ctx, typeID, id)
	}
	rt.handle("PUT", "/api/content/{type}/{idOrSlug}/progress", own.Progress())
	rt.handle("PUT", "/api/content/{type}/{idOrSlug}/enrolment", own.Enrolment(true))
	rt.handle("DELETE", "/api/content/{type}/{idOrSlug}/enrolment", own.Enrolment(false))

	// Comments (core/engagement): on community posts and on any published
	// item; edit and delete of one comment are checked in the handlers.
	resolve := func(ctx context.Context, typeID, id string) (string, error) {
		it, err := c.Store.GetPublished(ctx, typeID, id, "")
		return it.ID, err
	}
	moderates := func(p core.Principal) bool { return d.Authz.Allowed(p.Roles, "community:comments", "moderate") }
	postComments := engagement.CommentsHTTP{Service: c.Engagement, Resolve: resolve, Type: community.TypeID, IsModerator: moderates, Log: d.Log}
	anyComments := engagement.CommentsHTTP{Service: c.Engagement, Resolve: engageable, IsModerator: moderates, Log: d.Log}
	// A reaction names only the comment: the item it belongs to passes the
	// same access rule first (community posts' comments are the feed's).
	commentAccess := func(next http.Handler) http.Handler {
		return httpx.Handle(d.Log, func(w http.ResponseWriter, r *http.Request) error {
			itemID, err := c.Engagement.CommentItem(r.Context(), chi.URLParam(r, "id"))
			if err != nil {
				return err
			}
			if itemID != "" {
				it, err := c.Store.Get(r.Context(), itemID)
				if err != nil && core.ErrorCode(err) != core.ENOTFOUND {
					return err
				}
				if err == nil && it.Type != community.TypeID {
					if _, err := engageable(r.Context(), it.Type, itemID); err != nil {
						return err
					}
				}
			}
			next.ServeHTTP(w, r)
			return nil
		})
	}
	rt.handle("GET", "/api/community/posts/{id}/comments", postComments.List())
	rt.handle("POST", "/api/community/posts/{id}/comments", postComments.Create())
	rt.handle("GET", "/api/content/{type}/{idOrSlug}/comments", anyComments.List())
	rt.handle("POST", "/api/content/{type}/{idOrSlug}/comments", anyComments.Create())
	rt.handle("PUT", "/api/comments/{id}", anyComments.Edit())
	rt.handle("DELETE", "/api/comments/{id}", anyComments.Delete())
	rt.handle("PUT", "/api/comments/{id}/reaction", commentAccess(anyComments.Reaction()))

	ed := c.Editorial
	rt.handle("GET", "/api/admin/content/types", ed.Types())
	rt.handle("POST", "/api/admin/content/uploads", content.HandleUpload(d.Log, c.Uploads))
	rt.handle("GET", "/api/admin/agenda", ed.Agenda())
	rt.handle("GET", "/api/admin/queue", ed.Queue())
	rt.handle("GET", "/api/admin/audit", ed.AuditList())
	rt.handle("GET", "/api/admin/content/{type}", ed.List())
	rt.handle("POST", "/api/admin/content/{type}", ed.Create())
	rt.handle("GET", "/api/admin/content/{type}/{id}", ed.Get())
	rt.handle("PUT", "/api/admin/content/{type}/{id}", ed.Update())
	rt.handle("POST", "/api/admin/content/{type}/{id}/actions/{action}", ed.Act())
	rt.handle("POST", "/api/admin/content/{type}/bulk/{action}", ed.Bulk())
	rt.handle("GET", "/api/admin/content/{type}/{id}/revisions", ed.Revisions())
	rt.handle("GET", "/api/admin/content/{type}/{id}/revisions/diff", ed.Diff())
	rt.handle("POST", "/api/admin/content/{type}/{id}/revisions/{rev}/restore", ed.Restore())
	rt.handle("GET", "/api/admin/content/{type}/{id}/timeline", ed.Timeline())
	rt.handle("POST", "/api/admin/content/{type}/{id}/lock", ed.Lock(editorial.LockAcquire))
	rt.handle("POST", "/api/admin/content/{type}/{id}/lock/heartbeat", ed.Lock(editorial.LockHeartbeat))
	rt.handle("POST", "/api/admin/content/{type}/{id}/lock/takeover", ed.Lock(editorial.LockTakeOver))
	rt.handle("DELETE", "/api/admin/content/{type}/{id}/lock", ed.Lock(editorial.LockRelease))
	rt.handle("POST", "/api/admin/content/{type}/{id}/preview", ed.Preview())
	rt.handle("GET", "/api/admin/content/{type}/{id}/reviewer", ed.Reviewer())
	rt.handle("PUT", "/api/admin/content/{type}/{id}/reviewer", ed.AssignReviewer())
	rt.handle("GET", "/api/admin/content/{type}/{id}/comments", ed.Comments())
	rt.handle("POST", "/api/admin/content/{type}/{id}/comments", ed.AddComment())
	rt.handle("PUT", "/api/admin/content/{type}/{id}/unpublish_at", ed.SetUnpublishAt())
	rt.handle("GET", "/api/admin/content/{type}/{id}/editors", ed.Editors())
	rt.handle("PUT", "/api/admin/content/{type}/{id}/editors/{userId}", ed.Share(true))
	rt.handle("DELETE", "/api/admin/content/{type}/{id}/editors/{userId}", ed.Share(false))
}
