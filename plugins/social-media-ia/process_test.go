package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/pluginhost"
)

var pluginsDir string

// TestMain builds this plugin into a temporary plugin directory, so the
// process test runs it behind a real core and the core's AI service
// (its demonstration server).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "social-media-ia-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin := filepath.Join(dir, Manifest.ID)
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build plugin:", err)
		os.Exit(1)
	}
	if err := pluginhost.RecordChecksum(bin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pluginsDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The real path: plugin process → host.AI → core/ai → the demonstration
// server, the per-tool quota from TRIAL_LIMITS, and tokens per tool.
func TestHostAIThroughTheCore(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginsDir, "TRIAL_LIMITS": "ai_social_media_ia=2,ai_consultations=5"})
	ana, anaID := srv.SignedIn(t, "ana.social@exemplo.com.br")
	body := map[string]any{"network": "whatsapp", "topic": "vacinacao", "audience": "tutores-caes", "tone": "acolhedor"}
	var out struct {
		Post struct {
			ID      string `json:"id"`
			Content Post   `json:"content"`
		} `json:"post"`
		Remaining int  `json:"remaining"`
		Demo      bool `json:"demo"`
	}
	res := ana.Do("POST", "/api/tools/social-media-ia/posts", body)
	if res.Status != 201 {
		t.Fatalf("generate: %d %s", res.Status, res.Body)
	}
	res.JSON(t, &out)
	if !out.Demo || out.Remaining != 1 || !strings.Contains(out.Post.Content.Text, "Modo demonstração") || len([]rune(out.Post.Content.Full)) > 700 {
		t.Fatalf("post: %+v", out)
	}
	if res := ana.Do("POST", "/api/tools/social-media-ia/calendar", body); res.Status != 201 || strings.Count(string(res.Body), `"dia"`) != 7 {
		t.Fatalf("calendar: %d %s", res.Status, res.Body)
	}
	res = ana.Do("POST", "/api/tools/social-media-ia/posts", body)
	if res.Status != 429 || !strings.Contains(res.ErrorMessage(), "Você usou as 2 gerações de IA de hoje") {
		t.Fatalf("third: %d %s", res.Status, res.Body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var calls int
	var tokens int64
	if err := srv.App.Pool.QueryRow(ctx, `SELECT calls, prompt_tokens + completion_tokens FROM ai_tool_usage_daily WHERE user_id = $1 AND tool_id = 'social-media-ia'`, anaID).Scan(&calls, &tokens); err != nil {
		t.Fatal(err)
	}
	if calls != 2 || tokens <= 0 {
		t.Fatalf("usage: %d calls, %d tokens", calls, tokens)
	}
	usage, err := srv.App.AI.ToolsUsage(ctx, time.Now().Add(-time.Hour))
	if err != nil || len(usage) != 1 || usage[0].ToolID != "social-media-ia" || usage[0].Calls != 2 || len(usage[0].Templates) != 2 {
		t.Fatalf("tools usage: %v %+v", err, usage)
	}
	// Another member has a quota of their own and sees none of Ana's posts.
	bia, _ := srv.SignedIn(t, "bia.social@exemplo.com.br")
	if res := bia.Do("GET", "/api/tools/social-media-ia/posts/"+out.Post.ID, nil); res.Status != 404 {
		t.Fatalf("another member: %d", res.Status)
	}
	if res := bia.Do("POST", "/api/tools/social-media-ia/posts", body); res.Status != 201 {
		t.Fatalf("bia: %d %s", res.Status, res.Body)
	}
}
