package seed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/videos"
)

// demoMediaVideos are exclusive videos that play from the media library, so
// the library, the list and the player work offline: short clips ffmpeg
// makes on the developer's machine (a test pattern, a tone and a pt-BR title
// card), uploaded into the library and processed by the real pipeline.
// Categories are keys of demoVideoCategories.
var demoMediaVideos = []struct {
	key, title, description, category, difficulty, instructor string
	tags                                                      []string
	pattern                                                   string // ffmpeg lavfi video source
	tone, seconds                                             int    // Hz of the sine, clip length
}{
	{"demo-envio-padrao-de-teste", "Padrão de teste colorido",
		"Clipe curto gerado localmente (padrão de teste com tom de 440 Hz) e processado pela biblioteca de mídia, para testar o player sem internet.",
		"clinica", "Iniciante", "Equipe VetClube", []string{"demonstração"}, "testsrc2", 440, 10},
	{"demo-envio-barras-smpte", "Barras de cor SMPTE",
		"Barras de cor com tom de 660 Hz: confira cores, som e a troca de qualidade (360p e 720p) no player.",
		"clinica", "Iniciante", "Equipe VetClube", []string{"demonstração"}, "smptebars", 660, 8},
	{"demo-envio-boas-vindas", "Boas-vindas à biblioteca de vídeos",
		"Clipe de demonstração da categoria Carreira e Gestão, com cartela de título em português e tom de 523 Hz.",
		"carreira", "Iniciante", "Equipe VetClube", []string{"demonstração", "carreira"}, "testsrc2", 523, 12},
}

// demoMediaWait bounds how long the seed waits for the clips' processing
// before leaving them unpublished (the next run picks them up again).
const demoMediaWait = 20 * time.Minute

// demoMediaPoll is how often the seed looks at an asset in processing.
const demoMediaPoll = 2 * time.Second

// mediaSeedReady says whether the demo clips can be made and processed
// here, and why not in pt-BR when they cannot.
func (a demo) mediaSeedReady() (bool, string) {
	switch {
	case a.Media == nil:
		return false, "a biblioteca de mídia não está disponível"
	case a.Engagement.Temporal == nil:
		return false, "o processamento de vídeos (Temporal) não está disponível"
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		return false, "o ffmpeg não foi encontrado"
	}
	return true, ""
}

// startMediaVideos seeds the library's demo videos in the background: making
// and processing the clips takes a while, and the server serves meanwhile.
// DEMO_MEDIA=false skips them (the browser tests' servers).
func (a demo) startMediaVideos(ctx context.Context, cats map[string]string, ids map[string]string, stdout io.Writer) {
	if !a.Config.DemoMedia {
		return
	}
	if ok, why := a.mediaSeedReady(); !ok {
		fmt.Fprintf(stdout, "  vídeos de demonstração da biblioteca de mídia não criados: %s\n", why)
		return
	}
	go func() {
		n, err := a.seedMediaVideos(ctx, cats, ids)
		switch {
		case err != nil && ctx.Err() == nil:
			a.Log.Error("seed: demo media videos", "err", err)
		case n > 0:
			a.Log.Info("seed: demo media videos published", "count", n)
		}
	}()
}

func (a demo) mediaVideos(ctx context.Context) (int, error) {
	if ok, why := a.mediaSeedReady(); !ok {
		return 0, errors.New(why)
	}
	cats := map[string]string{}
	rows, err := a.Pool.Query(ctx, `SELECT substring(slug FROM 18), id::text FROM content_items
		WHERE type = $1 AND slug LIKE 'videos-categoria-%'`, videos.TypeCategory)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var key, id string
		if err := rows.Scan(&key, &id); err != nil {
			rows.Close()
			return 0, err
		}
		cats[key] = id
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	ids := map[string]string{}
	rows, err = a.Pool.Query(ctx, `SELECT email, id::text FROM users WHERE email IN ('editora@vetclube.dev', 'revisor@vetclube.dev')`)
	if err != nil {
		return 0, err
	}
	for rows.Next() {
		var email, id string
		if err := rows.Scan(&email, &id); err != nil {
			rows.Close()
			return 0, err
		}
		ids[email] = id
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(cats) < len(demoVideoCategories) || len(ids) < 2 {
		return 0, errors.New("run the development seed first: the video categories or the editorial accounts are missing")
	}
	return a.seedMediaVideos(ctx, cats, ids)
}

// demoMediaItem is a demo video's item as the seed finds it.
type demoMediaItem struct {
	id, asset string
	status    content.Status
}

func (a demo) seedMediaVideos(ctx context.Context, cats map[string]string, ids map[string]string) (int, error) {
	editor := content.Actor{UserID: ids["editora@vetclube.dev"], Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: ids["revisor@vetclube.dev"], Channel: content.ChannelSystem}
	work, err := os.MkdirTemp("", "vetclube-demo-media-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(work)

	// First every clip is made and uploaded (the pipeline transcodes one
	// while the next is made), then each is published as it becomes ready.
	pending := make([]demoMediaItem, 0, len(demoMediaVideos))
	for _, v := range demoMediaVideos {
		key := "seed:" + videos.TypeVideo + ":" + v.key
		it, err := a.demoMediaItem(ctx, key)
		if err != nil {
			return 0, err
		}
		switch it.status {
		case "", content.StatusDraft, content.StatusInReview, content.StatusApproved:
		default:
			// Published, or moved on by a developer (archived, scheduled…):
			// theirs from now on.
			continue
		}
		if it.id == "" {
			clip := filepath.Join(work, v.key+".mp4")
			if err := makeDemoClip(ctx, clip, v.title, v.pattern, v.tone, v.seconds); err != nil {
				return 0, fmt.Errorf("demo clip %s: %w", v.key, err)
			}
			assetID, err := a.Media.Import(ctx, clip, v.key+".mp4", editor.UserID)
			if err != nil {
				return 0, fmt.Errorf("import demo clip %s: %w", v.key, err)
			}
			created, _, err := a.Content.Store.Create(ctx, editor, videos.TypeVideo, content.Input{Slug: v.key, Title: v.title,
				Fields: map[string]any{"description": v.description, "category": cats[v.category], "video_source": "upload",
					"video_asset": assetID, "difficulty": v.difficulty, "instructor": v.instructor, "tags": v.tags}}, key)
			if err != nil {
				return 0, fmt.Errorf("demo video %s: %w", v.key, err)
			}
			it = demoMediaItem{id: created.ID, asset: assetID, status: created.Status}
		}
		pending = append(pending, it)
	}

	published := 0
	deadline := time.Now().Add(demoMediaWait)
	for _, it := range pending {
		if it.asset == "" {
			continue // the video was pointed elsewhere by hand
		}
		ready, err := a.waitDemoAsset(ctx, it.asset, deadline)
		if err != nil {
			return published, err
		}
		if !ready {
			continue
		}
		if err := a.publishDemoItem(ctx, editor, revisor, it.id); err != nil {
			return published, err
		}
		published++
	}
	return published, nil
}

// demoMediaItem finds the demo video created under idempotency key key
// (zero when there is none yet).
func (a demo) demoMediaItem(ctx context.Context, key string) (demoMediaItem, error) {
	var it demoMediaItem
	err := a.Pool.QueryRow(ctx, `SELECT id::text, status, coalesce(fields->>'video_asset', '') FROM content_items
		WHERE type = $1 AND idempotency_key = $2`, videos.TypeVideo, key).Scan(&it.id, &it.status, &it.asset)
	if errors.Is(err, pgx.ErrNoRows) {
		return demoMediaItem{}, nil
	}
	return it, err
}

// waitDemoAsset waits for an asset to be pronto; false when it failed or
// the deadline passed (logged: the video stays a draft).
func (a demo) waitDemoAsset(ctx context.Context, id string, deadline time.Time) (bool, error) {
	for {
		as, err := a.Media.Get(ctx, id)
		if err != nil {
			return false, err
		}
		switch {
		case as.State == media.StateReady:
			return true, nil
		case as.State == media.StateFailed:
			a.Log.Warn("seed: demo clip processing failed; retry it in the media library", "asset", id, "error", as.Error)
			return false, nil
		case time.Now().After(deadline):
			a.Log.Warn("seed: demo clip still processing; it is published on a later run", "asset", id, "percent", as.ProgressPercent)
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(demoMediaPoll):
		}
	}
}

// publishDemoItem takes a demo video from wherever it stopped (draft, in
// review, approved) to published, as the editor and the reviewer would.
func (a demo) publishDemoItem(ctx context.Context, editor, revisor content.Actor, id string) error {
	it, err := a.Content.Store.Get(ctx, id)
	if err != nil {
		return err
	}
	for it.Status != content.StatusPublished {
		actor, role, act := editor, editorial.RoleEditor, editorial.ActionSubmit
		switch it.Status {
		case content.StatusInReview:
			actor, role, act = revisor, editorial.RoleRevisor, editorial.ActionApprove
		case content.StatusApproved:
			actor, role, act = revisor, editorial.RoleRevisor, editorial.ActionPublish
		}
		if it, err = a.Content.Workflow.Act(ctx, actor, []editorial.Role{role}, it.ID, it.Version, act, ""); err != nil {
			return fmt.Errorf("demo video %s: %s: %w", it.Slug, act, err)
		}
	}
	return nil
}

// makeDemoClip writes an H.264/AAC mp4 of seconds at 1280×720: a title card
// for the first three seconds, then the test pattern with the title at the
// bottom, over a sine tone. Without drawtext (an ffmpeg built without
// libfreetype, or no font) the clip is made without the text.
func makeDemoClip(ctx context.Context, out, title, pattern string, tone, seconds int) error {
	// The text goes through files so that no character of a title needs
	// escaping in the filter graph.
	titleFile := out + ".title.txt"
	brandFile := out + ".brand.txt"
	if err := os.WriteFile(titleFile, []byte(title), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(brandFile, []byte("VetClube · vídeo de demonstração"), 0o644); err != nil {
		return err
	}
	card := "drawbox=x=0:y=0:w=iw:h=ih:color=0x0f5c55:t=fill:enable='lt(t,3)'," +
		"drawtext=textfile=" + titleFile + ":font=Sans:fontsize=48:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2-30:enable='lt(t,3)'," +
		"drawtext=textfile=" + brandFile + ":font=Sans:fontsize=30:fontcolor=white@0.85:x=(w-text_w)/2:y=(h/2)+50:enable='lt(t,3)'," +
		"drawbox=x=0:y=ih-90:w=iw:h=90:color=black@0.6:t=fill:enable='gte(t,3)'," +
		"drawtext=textfile=" + titleFile + ":font=Sans:fontsize=36:fontcolor=white:x=40:y=h-64:enable='gte(t,3)'"
	err := runFFmpeg(ctx, out, pattern, tone, seconds, card)
	if err != nil {
		// A colour card without text still shows the pipeline working.
		err = runFFmpeg(ctx, out, pattern, tone, seconds,
			"drawbox=x=0:y=0:w=iw:h=ih:color=0x0f5c55:t=fill:enable='lt(t,3)'")
	}
	return err
}

func runFFmpeg(ctx context.Context, out, pattern string, tone, seconds int, filter string) error {
	secs := strconv.Itoa(seconds)
	cmd := exec.CommandContext(ctx, "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
		"-f", "lavfi", "-i", pattern+"=size=1280x720:rate=30:duration="+secs,
		"-f", "lavfi", "-i", "sine=frequency="+strconv.Itoa(tone)+":sample_rate=48000:duration="+secs,
		"-vf", filter, "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p",
		"-c:a", "aac", "-b:a", "96k", "-shortest", "-movflags", "+faststart", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ffmpeg: %w: %s", err, msg)
	}
	return nil
}
