// Package httpapi assembles VetClube's HTTP surface: middleware, the one
// routes.go where every route is visible with its authorisation, the OpenAPI
// document and the built PWA. Feature handlers live in their domain packages
// (core/auth, core/profiles, …); this package only wires them.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/challenges"
	"github.com/vetclube/vetclube/core/checkin"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/events"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/jobs"
	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/moderation"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/referrals"
	"github.com/vetclube/vetclube/core/rewards"
	"github.com/vetclube/vetclube/core/roles"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/core/toolfiles"
	"github.com/vetclube/vetclube/core/videos"
)

// Authenticator resolves who is calling. It returns core.Visitor and no error
// for anonymous requests or an expired access token (the client refreshes and
// retries), and an error only when the request must be refused outright, such
// as a cookie-authenticated write without a valid CSRF token.
type Authenticator interface {
	Authenticate(r *http.Request) (core.Principal, error)
}

// Deps is everything the HTTP layer needs; main (core/app) builds it.
type Deps struct {
	Config        config.Config
	Log           *slog.Logger
	Pool          *pgxpool.Pool
	Authz         *authz.Authorizer
	Authenticator Authenticator
	// Draining reports whether the instance is stopping (/readyz answers
	// 503); nil never.
	Draining func() bool

	Profiles *profiles.Service
	Roles    *roles.Service
	// Auth serves accounts and sessions; Mailbox the dev mailbox (nil
	// outside development, and then its routes are not registered).
	Auth    *auth.Service
	Mailbox *mail.Mailbox
	// Uploads serves the public files under /uploads/ (avatars).
	Uploads http.Handler
	// StreamsOrigin is the scheme://host of the presigned addresses
	// protected media are fetched from (the private S3 bucket); "" when
	// they come from this origin.
	StreamsOrigin string
	// VetCoins, check-in, subscription, notifications and the live stream.
	Points        *points.Ledger
	Checkin       *checkin.Service
	Subscriptions *subscriptions.Service
	Notifications *notifications.Service
	Events        *events.Hub
	// Push is Web Push: the VAPID key, devices and deliveries.
	Push *push.Service
	// Connections is who is connected to whom, requests and blocks.
	Connections *connections.Service
	// Tools runs the plugin tools behind /api/tools.
	Tools *pluginhost.Manager
	// ToolFiles is members' uploads to tools (core/toolfiles); nil: not
	// served.
	ToolFiles *toolfiles.Service
	// Content is the content platform's API (routes.go).
	Content ContentDeps
	// Eventos is the events API (core/eventos); nil: not served.
	Eventos *eventos.HTTP
	// Jobs is Oportunidades (core/jobs); nil: not served.
	Jobs *jobs.HTTP
	// Challenges is the challenges API (core/challenges); nil: not served.
	Challenges *challenges.HTTP
	// Courses is the courses API (core/courses); nil: not served.
	Courses *courses.HTTP
	// Videos is the exclusive videos API (core/videos); nil: not served.
	Videos *videos.HTTP
	// Community is the feed's posts, pictures and likes (core/community);
	// nil: not served.
	Community *community.HTTP
	// Moderation is reports and the moderation queue (core/moderation);
	// nil: not served.
	Moderation *moderation.HTTP
	// Referrals is "Indique e ganhe" (core/referrals); nil: not served.
	Referrals *referrals.HTTP
	// Rewards is the VetCoins shop (core/rewards); nil: not served.
	Rewards *rewards.HTTP
	// Media is the media library: tus uploads and its admin API
	// (core/media); nil: not served.
	Media *media.HTTP
	// AI is VetClube IA (core/ai); nil: not served. AIOrigin is its
	// endpoint's scheme://host, allowed by the CSP's connect-src ("" for
	// the embedded demonstration server).
	AI       *ai.HTTP
	AIOrigin string
	// Billing is Stripe checkout, portal, webhooks and the billing
	// backoffice (core/billing); nil: not served.
	Billing *billing.HTTP
	// LGPD is the member's data: export and account deletion, and the
	// backoffice's request list (core/lgpd); nil: not served.
	LGPD *lgpd.HTTP
}

// New returns the application's root handler.
func New(d Deps) http.Handler {
	mux := chi.NewRouter()
	mux.Use(
		httpx.WithRequestID,
		accessLog(d.Log),
		recoverPanics(d.Log),
		securityHeaders(withConnect(contentSecurityPolicy(filesOrigin(d.Config.S3PublicURL), d.StreamsOrigin), d.AIOrigin)),
		noStoreAPI,
		httpx.CheckURL(d.Log),
		limitBodies,
		middleware.GetHead,
		headOnly,
		authenticate(d),
	)
	rt := &router{mux: mux, authz: d.Authz, log: d.Log}
	addRoutes(rt, d)
	mux.NotFound(serveWebApp(d.Config.WebDist, d.Config.AdminDist, d.Log, contentPageMeta(d.Content.Store)))
	mux.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		allowed := allowedMethods(mux, r)
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		httpx.WriteError(w, r, d.Log, core.Errorf(core.EMETHOD,
			"Método não permitido neste endereço. Métodos aceitos: %s.", strings.Join(allowed, ", ")))
	})
	return mux
}

// probeMethods are the methods a 405 answer may list in Allow.
var probeMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// allowedMethods lists the methods some route serves at r's path; HEAD
// follows GET (middleware.GetHead answers it with the GET handler).
func allowedMethods(mux chi.Routes, r *http.Request) []string {
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	var out []string
	for _, m := range probeMethods {
		if mux.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
			if m == http.MethodGet {
				out = append(out, http.MethodHead)
			}
		}
	}
	return out
}

// DeniedByHeader is set on responses refused by the route's casbin policy.
const DeniedByHeader = "X-Denied-By"

// router registers each route behind its casbin policy (core/authz/policy.csv).
type router struct {
	mux   chi.Router
	authz *authz.Authorizer
	log   *slog.Logger
}

func (rt *router) handle(method, pattern string, h http.Handler) {
	rt.mux.Method(method, pattern, rt.authz.Require(method, pattern, h, func(w http.ResponseWriter, r *http.Request, err error) {
		// Tells a 401/403 from the policy apart from one a handler returns
		// (wrong password, expired refresh token) in logs and in the
		// HTTP-level authorisation test.
		w.Header().Set(DeniedByHeader, "policy")
		httpx.WriteError(w, r, rt.log, err)
	}))
}

func authenticate(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := core.Visitor
			if d.Authenticator != nil {
				var err error
				p, err = d.Authenticator.Authenticate(r)
				if err != nil {
					httpx.WriteError(w, r, d.Log, err)
					return
				}
			}
			next.ServeHTTP(w, r.WithContext(core.WithPrincipal(r.Context(), p)))
		})
	}
}

// contentPageMeta is the link preview of a published content item's page.
func contentPageMeta(store *content.Store) pageMetaFunc {
	if store == nil {
		return nil
	}
	return func(ctx context.Context, urlPath string) (string, string, bool, error) {
		m, ok, err := store.PageMetaFor(ctx, urlPath)
		return m.Title, m.Description, ok, err
	}
}

// withConnect adds origin (the AI endpoint's) to the policy's connect-src.
func withConnect(csp, origin string) string {
	if origin == "" {
		return csp
	}
	return strings.Replace(csp, "connect-src 'self'", "connect-src 'self' "+origin, 1)
}
