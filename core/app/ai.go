package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/ai"
	"github.com/vetclube/vetclube/core/ai/fakeoai"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/pluginhost"
)

// buildAI creates VetClube IA. With no OPENAI_BASE_URL the in-repo
// demonstration server (core/ai/fakeoai) starts on a loopback port and the
// service talks to it exactly as to a real endpoint.
func (a *App) buildAI(cfg config.Config, pool *pgxpool.Pool, log *slog.Logger) error {
	prices, err := ai.ParsePrices(cfg.AIPrices)
	if err != nil {
		return err
	}
	o := ai.Options{
		BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.OpenAIModel, VisionModel: cfg.OpenAIVisionModel,
		Prices: prices, TrialDaily: cfg.TrialLimits["ai_consultations"],
		PremiumDaily: cfg.AIPremiumDaily, PremiumMonthlyTokens: int64(cfg.AIPremiumMonthlyTokens),
		Retries: 3, Log: log, Calculators: calculators{a.Tools}, ToolLimits: cfg.TrialLimits,
		CanOpenLesson: func(ctx context.Context, lessonID, userID string) (bool, error) {
			_, err := a.Courses.LessonEngageable(ctx, lessonID, userID)
			if err == nil {
				return true, nil
			}
			if core.ErrorCode(err) == core.EINTERNAL {
				return false, err
			}
			return false, nil // not found, or closed to this member
		},
		Premium: func(ctx context.Context, userID string) (bool, error) {
			v, err := a.Engagement.Subscriptions.View(ctx, userID)
			return v.IsPremium, err
		},
	}
	if o.BaseURL == "" {
		base, stop, err := fakeoai.New(30 * time.Millisecond).Start("127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("VetClube IA demonstration server: %w", err)
		}
		a.onClose(stop)
		o.BaseURL, o.Demo, o.Model, o.VisionModel = base, true, fakeoai.Model, fakeoai.Model
		log.Info("OPENAI_BASE_URL is empty: VetClube IA answers in demonstration mode (no language model)", "endpoint", base)
	} else if u, err := url.Parse(o.BaseURL); err == nil {
		a.aiOrigin = u.Scheme + "://" + u.Host
	}
	a.AI = ai.New(pool, o)
	// Tool plugins reach the model only through the host (host.AI); an image
	// is one the member uploaded to that tool (core/toolfiles), never another
	// member's or another tool's (ENOTFOUND).
	a.Tools.SetAI(a.AI, func(ctx context.Context, pluginID, userID, fileID string) (string, []byte, error) {
		f, data, err := a.ToolFiles.Read(ctx, pluginID, userID, fileID)
		if err != nil {
			return "", nil, err
		}
		return f.ContentType, data, nil
	})
	a.Engagement.Subscriptions.CountUsageWith("ai_consultations", a.AI.UsedToday)
	// The trial's promise (confirmation e-mail) says these are per day.
	a.Engagement.Subscriptions.CountsPerDay("ai_consultations")
	return nil
}

// calculators lets VetClube IA call the calculator forms through the plugin
// host, as the member: the plugin validates the arguments as its form does.
type calculators struct{ m *pluginhost.Manager }

func (c calculators) FormTools() []ai.CalcTool {
	var out []ai.CalcTool
	for _, t := range c.m.FormTools() {
		if t.Access == "user" {
			out = append(out, ai.CalcTool{ID: t.ID, UISchema: t.UISchema})
		}
	}
	return out
}

func (c calculators) Call(ctx context.Context, userID, toolID, action string, args []byte) (int, []byte, error) {
	return c.m.CallForm(ctx, core.Principal{UserID: userID, Roles: []string{core.RoleUser}}, toolID, action, args)
}
