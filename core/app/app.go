// Package app wires VetClube together: it builds every service from the
// configuration and a database pool, and Run is the whole program behind
// cmd/vetclube (serve, migrate, admin and dev-database commands). Tests start
// complete server instances through Build (see core/app/apptest).
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/authz"
	"github.com/vetclube/vetclube/core/billing"
	"github.com/vetclube/vetclube/core/billing/stripefake"
	"github.com/vetclube/vetclube/core/challenges"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/eventos"
	"github.com/vetclube/vetclube/core/httpapi"
	"github.com/vetclube/vetclube/core/jobs"
	"github.com/vetclube/vetclube/core/lgpd"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/moderation"
	"github.com/vetclube/vetclube/core/pluginhost"
	"github.com/vetclube/vetclube/core/pluginhost/confine"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/ratelimit"
	"github.com/vetclube/vetclube/core/referrals"
	"github.com/vetclube/vetclube/core/rewards"
	"github.com/vetclube/vetclube/core/roles"
	"github.com/vetclube/vetclube/core/subscriptions"
	"github.com/vetclube/vetclube/core/toolfiles"
	"github.com/vetclube/vetclube/core/toolschedule"
	"github.com/vetclube/vetclube/core/videos"
)

// App is one running instance's services and its HTTP handler.
type App struct {
	Config  config.Config
	Log     *slog.Logger
	Pool    *pgxpool.Pool
	Handler http.Handler
	// Draining is set when the instance starts stopping: /readyz answers 503.
	Draining atomic.Bool

	Profiles *profiles.Service

	// Auth is accounts and sessions. Register extra roles with
	// Auth.AddRoleSource and work to do on email confirmation with
	// Auth.AddEmailConfirmedHook, here in Build, before the handler serves.
	Auth *auth.Service
	// Mailbox is the development mailbox (nil when SMTP_URL is set).
	Mailbox *mail.Mailbox

	// Tools is the plugin host (tests read plugin pids and refusals from it).
	Tools *pluginhost.Manager

	// Engagement is VetCoins, check-in, subscriptions and live events (engagement.go).
	Engagement Engagement

	// Connections is who is connected to whom (requests, blocks, suggestions).
	Connections *connections.Service

	// Content is the content platform (content.go): register test types on
	// Content.Registry before calling the content routes.
	Content Content

	// Eventos is the events' core side (events.go): lists, seats, timers.
	Eventos *eventos.Service

	// Jobs is Oportunidades' core side (jobs.go): jobs, applications,
	// saved searches and alerts.
	Jobs *jobs.Service
	// Challenges is the challenges' core side (challenges.go).
	Challenges *challenges.Service

	// Courses is the courses' core side (courses.go): catalogue, progress,
	// certificates.
	Courses *courses.Service

	// Videos is the exclusive videos' core side (videos.go).
	Videos *videos.Service

	// Community is the feed's posts, pictures and likes (community.go).
	Community *community.Service

	// Moderation is reports and the moderation queue (moderation.go).
	Moderation *moderation.Service

	// Referrals is "Indique e ganhe" (referrals.go).
	Referrals *referrals.Service

	// Rewards is the VetCoins shop (rewards.go).
	Rewards *rewards.Service

	// Media is the media library (media.go): uploads, storage, processing.
	Media *media.Service
	// Streams signs the addresses of protected media (videos' streams,
	// documents) for readers with access.
	Streams     *media.Streams
	mediaUpload http.Handler

	// ToolFiles is members' uploads to tools (core/toolfiles).
	ToolFiles *toolfiles.Service
	// ToolSchedule is the notifications tools schedule for later
	// (core/toolschedule, toolschedule.go).
	ToolSchedule *toolschedule.Service

	// AI is VetClube IA (ai.go); aiOrigin the endpoint's origin for the CSP.
	AI       *ai.Service
	aiOrigin string
	// Billing is Stripe (core/billing); StripeFake the local fake Stripe
	// it talks to when STRIPE_SECRET_KEY is empty (nil otherwise).
	Billing    *billing.Service
	StripeFake *stripefake.Fake

	// LGPD is the member's data: export and account deletion (lgpd.go).
	LGPD *lgpd.Service

	closers []func() error
}

// Build creates every service on top of an open, migrated pool.
func Build(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) (*App, error) {
	a := &App{Config: cfg, Log: log, Pool: pool}
	az, err := authz.New()
	if err != nil {
		return nil, fmt.Errorf("authorisation policy: %w", err)
	}
	if err := a.buildAuth(cfg, pool, log); err != nil {
		return nil, err
	}
	files, err := newStores(ctx, cfg)
	if err != nil {
		return nil, err
	}
	uploads := files.public
	a.Profiles = profiles.NewService(pool, uploads, log)
	if err := a.buildNotifications(cfg, pool, log); err != nil {
		return nil, err
	}
	// Content plugins register their types as they start, so the registry
	// exists before the plugins and the store after them.
	a.Content.Registry = content.NewRegistry()
	// Members' files for tools live in the private store.
	a.ToolFiles = toolfiles.New(pool, toolfiles.Options{Store: files.private, Log: log})
	a.ToolSchedule = toolschedule.New(pool, toolschedule.Options{Sender: a.Engagement.Notifications, Log: log})
	tools := pluginhost.New(pluginhost.Options{
		Files:          a.ToolFiles,
		Scheduled:      a.ToolSchedule,
		Published:      publishedForTools{a},
		Dir:            cfg.PluginsDir,
		CallTimeout:    cfg.PluginCallTimeout,
		HealthInterval: cfg.PluginHealthInterval,
		DailyVetCoins:  cfg.PluginDailyVetCoins,
		Profiles:       a.Profiles,
		Notifications:  a.Engagement.Notifications,
		ContentTypes:   a.Content.Registry,
		Sandbox: confine.Options{
			Disabled:  !cfg.PluginSandbox,
			Memory:    uint64(cfg.PluginMemoryMB) << 20,
			OpenFiles: uint64(cfg.PluginOpenFiles),
			Processes: uint64(cfg.PluginProcesses),
		},
		// Production never runs a plugin with part of its confinement
		// missing, unless PLUGIN_SANDBOX=off says so explicitly.
		RequireConfinement: cfg.Env == "production",
		// Plugins start on their first call and stop when idle.
		IdleTimeout:      cfg.PluginIdleTimeout,
		IdleTimeouts:     cfg.PluginIdleTimeouts,
		PluginGOGC:       cfg.PluginGOGC,
		PluginGoMemLimit: cfg.PluginGoMemLimit,
	}, pool, points.New(pool), log)
	if err := tools.Start(ctx); err != nil {
		return nil, fmt.Errorf("plugins: %w", err)
	}
	a.onClose(tools.Close)
	a.Tools = tools
	if err := a.buildEngagement(ctx, cfg, pool, log); err != nil {
		return nil, err
	}
	// Plugins check trial limits (host.CheckLimit) against the subscription
	// service, built after them.
	tools.SetLimiter(pluginhost.LimiterFunc(func(ctx context.Context, userID, name string, used int) (pluginhost.LimitAnswer, error) {
		c, err := a.Engagement.Subscriptions.CheckCount(ctx, userID, name, used)
		return pluginhost.LimitAnswer{Allowed: c.Allowed, Limit: c.Limit, Used: c.Current}, err
	}))
	if err := a.buildReferrals(cfg, pool, log); err != nil {
		return nil, err
	}
	a.Connections = connections.New(pool, a.Profiles, a.Engagement.Notifications, log)
	rolesSvc := roles.NewService(pool)
	rolesSvc.OnChange(a.Auth.InvalidatePrincipalsOf)
	rolesSvc.ShowSubscriptionRoles(a.Engagement.Subscriptions.RolesOf)
	if err := a.buildContent(ctx, cfg, pool, rolesSvc); err != nil {
		return nil, fmt.Errorf("content: %w", err)
	}
	if err := a.buildEvents(ctx, cfg, pool); err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	// Protected media (streams, documents) are signed with a key derived
	// from the server's signing secret, shared by every instance.
	secret, err := content.PreviewSecret(ctx, pool)
	if err != nil {
		return nil, err
	}
	if a.Streams, err = media.NewStreams(secret, a.Content.Now); err != nil {
		return nil, err
	}
	a.buildCourses(pool)
	a.buildJobs(ctx, pool, files.private)
	a.buildVideos(pool)
	if err := a.buildCommunity(ctx, pool, uploads); err != nil {
		return nil, fmt.Errorf("community: %w", err)
	}
	// Measured challenges count lessons completed in courses and answers
	// accepted in the community.
	if err := a.buildChallenges(ctx, cfg, pool); err != nil {
		return nil, fmt.Errorf("challenges: %w", err)
	}
	a.buildModeration(pool)
	if err := a.buildMedia(ctx, cfg, pool, files); err != nil {
		return nil, fmt.Errorf("media: %w", err)
	}
	a.Content.Uploads = content.NewUploads(uploads, contentLibrary{a.Media})
	if err := a.buildAI(cfg, pool, log); err != nil {
		return nil, fmt.Errorf("ai: %w", err)
	}
	if err := a.buildBilling(cfg, pool, log); err != nil {
		return nil, fmt.Errorf("billing: %w", err)
	}
	a.connectReferralsBilling()
	a.buildRewards(pool, log)
	if err := a.buildLGPD(cfg, pool, files.public, files.private, log); err != nil {
		return nil, fmt.Errorf("lgpd: %w", err)
	}
	if err := a.startToolSchedule(cfg, log); err != nil {
		return nil, err
	}
	a.Handler = httpapi.New(httpapi.Deps{
		Draining:      a.Draining.Load,
		Points:        a.Engagement.Points,
		Checkin:       a.Engagement.Checkin,
		Subscriptions: a.Engagement.Subscriptions,
		Notifications: a.Engagement.Notifications,
		Events:        a.Engagement.Events,
		Push:          a.Engagement.Push,
		Connections:   a.Connections,

		Tools:     tools,
		ToolFiles: a.ToolFiles,
		Config:    cfg,
		Log:       log,
		Pool:      pool,
		Authz:     az,
		Profiles:  a.Profiles,
		Roles:     rolesSvc,
		Uploads:   files.handler(),

		StreamsOrigin: files.streamsOrigin,

		// Accounts and sessions (core/auth) and the dev mailbox (core/mail).
		Authenticator: a.Auth,
		Auth:          a.Auth,
		Mailbox:       a.devMailbox(),

		Eventos:    &eventos.HTTP{Service: a.Eventos, PublicURL: cfg.PublicURL, Log: log},
		Courses:    &courses.HTTP{Service: a.Courses, PublicURL: cfg.PublicURL, Log: log, Frame: a.Rewards.Frame},
		Jobs:       &jobs.HTTP{Service: a.Jobs, PublicURL: cfg.PublicURL, Log: log},
		Challenges: &challenges.HTTP{Service: a.Challenges, Log: log},
		Videos:     &videos.HTTP{Service: a.Videos, Log: log},
		Community:  &community.HTTP{Service: a.Community, Authz: az, Log: log},
		Moderation: &moderation.HTTP{Service: a.Moderation, Log: log},
		Referrals:  &referrals.HTTP{Service: a.Referrals, Log: log},
		Rewards:    &rewards.HTTP{Service: a.Rewards, Log: log},
		Media:      &media.HTTP{Service: a.Media, Upload: a.mediaUpload, Log: log},
		AI:         &ai.HTTP{Service: a.AI, Log: log},
		AIOrigin:   a.aiOrigin,
		Billing:    &billing.HTTP{Service: a.Billing, Log: log},
		LGPD:       &lgpd.HTTP{Service: a.LGPD, Log: log},
		Content: httpapi.ContentDeps{
			Store:      a.Content.Store,
			Engagement: a.Content.Engagement,
			Editorial: editorial.HTTP{Store: a.Content.Store, Workflow: a.Content.Workflow, Audit: a.Content.Audit, Reviews: a.Content.Reviews,
				Previews: a.Content.Previews, Log: log, Now: a.Content.Now, IsStaff: rolesSvc.IsEditorialStaff},
			Previews: a.Content.Previews,
			Uploads:  a.Content.Uploads,
			Access:   a.engagementAccess(),
		},
	})
	return a, nil
}

// buildAuth creates the mailer and the accounts service.
func (a *App) buildAuth(cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	var mailer mail.Mailer
	if cfg.SMTPURL != "" {
		smtp, err := mail.NewSMTP(cfg.SMTPURL, cfg.MailFrom)
		if err != nil {
			return err
		}
		// Requests only write to the durable outbox; a worker (one per
		// instance, rows claimed with SKIP LOCKED) talks to the SMTP server,
		// so no answer waits on it and a failed send is retried.
		queue := mail.NewQueue(pool)
		a.onClose(queue.StartWorker(context.Background(), smtp, log, mail.WorkerOptions{}))
		mailer = queue
	} else {
		a.Mailbox = mail.NewMailbox(pool)
		mailer = a.Mailbox
	}
	opts := auth.Options{
		PublicURL:   cfg.PublicURL,
		Log:         log,
		SignupPerIP: ratelimit.Rule{Max: cfg.SignupsPerIPPerMinute, Window: time.Minute},
		LoginPerIP:  ratelimit.Rule{Max: cfg.LoginsPerIPPerMinute, Window: time.Minute},
		// Whole days, rounded up: a trial shorter than a day (tests) is "1 dia".
		TrialDays: int((cfg.TrialDuration + 24*time.Hour - 1) / (24 * time.Hour)),
	}
	// The confirmation email promises the trial's real limits (the same
	// TRIAL_LIMITS the subscription service applies, said per day where a
	// feature counts per day) and Premium's benefits.
	opts.TrialOffer = func() string {
		if a.Engagement.Subscriptions != nil {
			return a.Engagement.Subscriptions.TrialPromise()
		}
		return subscriptions.TrialPromise(opts.TrialDays, cfg.TrialLimits, nil)
	}
	if cfg.GoogleClientID != "" {
		opts.Google = &auth.GoogleConfig{ClientID: cfg.GoogleClientID, ClientSecret: cfg.GoogleClientSecret, Issuer: cfg.GoogleIssuer}
	}
	svc, err := auth.New(pool, mailer, opts)
	if err != nil {
		return fmt.Errorf("auth: %w", err)
	}
	a.Auth = svc
	a.onClose(svc.StartMaintenance(10 * time.Minute))
	// Principals are cached only while this listener hears every other
	// instance's invalidations; start serving with it listening when the
	// database answers at once (it turns itself on later otherwise).
	watch, stop := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan struct{})
	go func() { defer close(done); svc.WatchPrincipalInvalidations(watch, pool, ready) }()
	a.onClose(func() error { stop(); <-done; return nil })
	select {
	case <-ready:
	case <-time.After(5 * time.Second):
		log.Warn("principal invalidation listener not ready; principals are not cached until it is")
	}
	return nil
}

// devMailbox is the mailbox shown at /dev/mailbox: development only.
func (a *App) devMailbox() *mail.Mailbox {
	if !a.Config.Development() {
		return nil
	}
	return a.Mailbox
}

// onClose registers fn to run when the app shuts down, last registered first.
func (a *App) onClose(fn func() error) { a.closers = append(a.closers, fn) }

// Close stops background work started by Build. The pool belongs to the caller.
func (a *App) Close() error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i]())
	}
	return errors.Join(errs...)
}
