package media

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vetclube/vetclube/core"
)

// MsgProcessingFailed is the reason kept when the processing gives none.
const MsgProcessingFailed = "O processamento do vídeo falhou."

// Source returns the video original's local path, the stream's storage
// prefix and the renditions done by earlier attempts.
func (s *Service) Source(ctx context.Context, assetID string) (Source, error) {
	a, err := s.asset(ctx, assetID)
	if err != nil {
		return Source{}, err
	}
	if a.Kind != KindVideo || a.originalKey == "" {
		return Source{}, core.Errorf(core.EINVALID, MsgNotVideo)
	}
	p, err := s.private.LocalPath(a.originalKey)
	if err != nil {
		return Source{}, fmt.Errorf("media: original of %s: %w", assetID, err)
	}
	var done []string
	if err := s.pool.QueryRow(ctx, `SELECT done_renditions FROM media_assets WHERE id = $1`, assetID).Scan(&done); err != nil {
		return Source{}, fmt.Errorf("media: source of %s: %w", assetID, err)
	}
	return Source{Path: p, HLSPrefix: a.hlsPrefix, DoneRenditions: done, Demuxer: demuxerOf(a.originalKey), SizeBytes: a.SizeBytes}, nil
}

// SetProbe records what ffprobe found in the original.
func (s *Service) SetProbe(ctx context.Context, assetID string, p Probe) error {
	return s.exec(ctx, assetID, `UPDATE media_assets SET duration_seconds = $2, width = $3, height = $4, has_audio = $5, updated_at = now()
		WHERE id = $1`, assetID, math.Max(0, p.DurationSeconds), max(0, p.Width), max(0, p.Height), p.HasAudio)
}

// SetProgress records one rendition's percent and the overall percent the
// admin shows while the video is processando.
func (s *Service) SetProgress(ctx context.Context, assetID, rendition string, percent int) error {
	percent = min(100, max(0, percent))
	return s.exec(ctx, assetID, `UPDATE media_assets SET progress = jsonb_set(progress, ARRAY[$2::text], to_jsonb($3::int)),
		progress_percent = CASE WHEN state = 'processando'
			THEN media_overall_percent(jsonb_set(progress, ARRAY[$2::text], to_jsonb($3::int)), least(width, height)) ELSE progress_percent END,
		updated_at = now()
		WHERE id = $1`, assetID, rendition, percent)
}

// renditionRecord is one finished rendition as media_assets.renditions keeps it.
type renditionRecord struct {
	Name         string `json:"name"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	BandwidthBps int    `json:"bandwidth_bps"`
	Playlist     string `json:"playlist"`
}

// subtitleRecord is one WebVTT track; File and Playlist are relative to
// the stream's prefix.
type subtitleRecord struct {
	Language string `json:"language"`
	Name     string `json:"name"`
	File     string `json:"file"`
	Playlist string `json:"playlist"`
}

// SaveRendition moves a finished rendition's playlist and segments into
// storage next to where master.m3u8 will be (prefix/<playlist's folder>/)
// and records it done; saving it again replaces it.
func (s *Service) SaveRendition(ctx context.Context, assetID string, r RenditionResult, dir string) error {
	playlist := path.Clean(r.Playlist)
	if r.Name == "" || !relativeKey(playlist) || !strings.HasSuffix(playlist, ".m3u8") {
		return fmt.Errorf("media: rendition %q has an invalid playlist %q", r.Name, r.Playlist)
	}
	a, err := s.asset(ctx, assetID)
	if err != nil {
		return err
	}
	folder := a.hlsPrefix
	if d := path.Dir(playlist); d != "." {
		folder += "/" + d
	}
	if err := s.moveDir(ctx, dir, folder); err != nil {
		return err
	}
	rec, err := json.Marshal(renditionRecord{Name: r.Name, Width: r.Width, Height: r.Height, BandwidthBps: r.BandwidthBps, Playlist: playlist})
	if err != nil {
		return err
	}
	return s.exec(ctx, assetID, `UPDATE media_assets SET
		renditions = (SELECT COALESCE(jsonb_agg(e), '[]'::jsonb) FROM jsonb_array_elements(renditions) AS e WHERE e->>'name' <> $2) || jsonb_build_array($3::jsonb),
		done_renditions = CASE WHEN $2 = ANY(done_renditions) THEN done_renditions ELSE array_append(done_renditions, $2) END,
		progress = jsonb_set(progress, ARRAY[$2::text], '100'::jsonb),
		progress_percent = CASE WHEN state = 'processando'
			THEN media_overall_percent(jsonb_set(progress, ARRAY[$2::text], '100'::jsonb), least(width, height)) ELSE progress_percent END,
		updated_at = now()
		WHERE id = $1`, assetID, r.Name, string(rec))
}

// SaveImages stores the poster and thumbnails under media/<id>/img/ with
// fresh names (each may be cached for a year) and removes the ones they
// replace.
func (s *Service) SaveImages(ctx context.Context, assetID string, poster string, thumbnails []string) error {
	a, err := s.asset(ctx, assetID)
	if err != nil {
		return err
	}
	var oldPoster string
	var oldThumbs []string
	if err := s.pool.QueryRow(ctx, `SELECT poster_key, thumbnail_keys FROM media_assets WHERE id = $1`, a.ID).Scan(&oldPoster, &oldThumbs); err != nil {
		return fmt.Errorf("media: images of %s: %w", assetID, err)
	}
	tag := randomToken(6)
	posterKey := ""
	if poster != "" {
		posterKey = "media/" + a.ID + "/img/poster-" + tag + ".jpg"
		if err := s.public.PutFile(ctx, posterKey, "image/jpeg", poster); err != nil {
			return fmt.Errorf("media: poster of %s: %w", assetID, err)
		}
	}
	thumbKeys := make([]string, 0, len(thumbnails))
	for i, t := range thumbnails {
		k := fmt.Sprintf("media/%s/img/thumb-%s-%d.jpg", a.ID, tag, i+1)
		if err := s.public.PutFile(ctx, k, "image/jpeg", t); err != nil {
			return fmt.Errorf("media: thumbnail of %s: %w", assetID, err)
		}
		thumbKeys = append(thumbKeys, k)
	}
	if err := s.exec(ctx, assetID, `UPDATE media_assets SET poster_key = $2, thumbnail_keys = $3, updated_at = now() WHERE id = $1`,
		assetID, posterKey, thumbKeys); err != nil {
		return err
	}
	for _, k := range append(oldThumbs, oldPoster) {
		if k != "" {
			_ = s.public.Delete(ctx, k)
		}
	}
	return nil
}

// SaveSubtitles stores WebVTT tracks (File names relative to dir) under
// the stream's subs/ folder in the private store, each with the one-segment playlist HLS players
// need to offer it.
func (s *Service) SaveSubtitles(ctx context.Context, assetID string, tracks []SubtitleResult, dir string) error {
	a, err := s.asset(ctx, assetID)
	if err != nil {
		return err
	}
	dur := math.Max(1, a.DurationSeconds)
	recs := make([]subtitleRecord, 0, len(tracks))
	for i, t := range tracks {
		file := path.Clean(filepath.ToSlash(t.File))
		if !relativeKey(file) {
			return fmt.Errorf("media: subtitle file %q is not relative", t.File)
		}
		base := fmt.Sprintf("subs/%d", i+1)
		if err := s.private.PutFile(ctx, a.hlsPrefix+"/"+base+".vtt", "text/vtt", filepath.Join(dir, filepath.FromSlash(file))); err != nil {
			return fmt.Errorf("media: subtitle of %s: %w", assetID, err)
		}
		pl := fmt.Sprintf("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:%d\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:%.3f,\n%d.vtt\n#EXT-X-ENDLIST\n",
			int(math.Ceil(dur)), dur, i+1)
		if err := s.private.Put(ctx, a.hlsPrefix+"/"+base+".m3u8", "application/vnd.apple.mpegurl", strings.NewReader(pl)); err != nil {
			return fmt.Errorf("media: subtitle playlist of %s: %w", assetID, err)
		}
		recs = append(recs, subtitleRecord{Language: t.Language, Name: t.Name, File: base + ".vtt", Playlist: base + ".m3u8"})
	}
	b, err := json.Marshal(recs)
	if err != nil {
		return err
	}
	return s.exec(ctx, assetID, `UPDATE media_assets SET subtitles = $2::jsonb, updated_at = now() WHERE id = $1`, assetID, string(b))
}

// Ready writes master.m3u8 (one #EXT-X-STREAM-INF per rendition, lowest
// bandwidth first, and a SUBTITLES group when there are tracks) and sets the
// asset pronto. An asset already pronto is left as it is.
func (s *Service) Ready(ctx context.Context, assetID string) error {
	a, err := s.asset(ctx, assetID)
	if err != nil {
		return err
	}
	if a.State == StateReady {
		return nil
	}
	var rends []renditionRecord
	var subs []subtitleRecord
	if err := s.pool.QueryRow(ctx, `SELECT renditions, subtitles FROM media_assets WHERE id = $1`, assetID).Scan(&rends, &subs); err != nil {
		return fmt.Errorf("media: ready %s: %w", assetID, err)
	}
	if len(rends) == 0 {
		return fmt.Errorf("media: ready %s: no rendition recorded", assetID)
	}
	key := a.hlsPrefix + "/master.m3u8"
	if err := s.private.Put(ctx, key, "application/vnd.apple.mpegurl", strings.NewReader(masterPlaylist(rends, subs))); err != nil {
		return fmt.Errorf("media: master playlist of %s: %w", assetID, err)
	}
	return s.exec(ctx, assetID, `UPDATE media_assets SET state = 'pronto', master_key = $2, progress_percent = 100, error = '', updated_at = now()
		WHERE id = $1 AND state IN ('processando', 'pronto')`, assetID, key)
}

// masterPlaylist is the HLS master playlist of renditions and subtitle tracks.
func masterPlaylist(rends []renditionRecord, subs []subtitleRecord) string {
	rends = slices.Clone(rends)
	slices.SortFunc(rends, func(a, b renditionRecord) int { return a.BandwidthBps - b.BandwidthBps })
	var b strings.Builder
	b.WriteString("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n")
	for i, t := range subs {
		name := t.Name
		if name == "" {
			name = t.Language
		}
		if name == "" {
			name = fmt.Sprintf("Legenda %d", i+1)
		}
		def := "NO"
		if i == 0 {
			def = "YES"
		}
		fmt.Fprintf(&b, "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=%q,DEFAULT=%s,AUTOSELECT=YES", quoteSafe(name), def)
		if t.Language != "" {
			fmt.Fprintf(&b, ",LANGUAGE=%q", quoteSafe(t.Language))
		}
		fmt.Fprintf(&b, ",URI=%q\n", t.Playlist)
	}
	for _, r := range rends {
		fmt.Fprintf(&b, "#EXT-X-STREAM-INF:BANDWIDTH=%d", max(1, r.BandwidthBps))
		if r.Width > 0 && r.Height > 0 {
			fmt.Fprintf(&b, ",RESOLUTION=%dx%d", r.Width, r.Height)
		}
		if len(subs) > 0 {
			b.WriteString(",SUBTITLES=\"subs\"")
		}
		fmt.Fprintf(&b, "\n%s\n", r.Playlist)
	}
	return b.String()
}

// quoteSafe drops what an HLS quoted string may not hold.
func quoteSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

// Failed sets the asset erro with reason; the original is kept for a retry.
func (s *Service) Failed(ctx context.Context, assetID, reason string) error {
	if strings.TrimSpace(reason) == "" {
		reason = MsgProcessingFailed
	}
	return s.exec(ctx, assetID, `UPDATE media_assets SET state = 'erro', error = $2, updated_at = now()
		WHERE id = $1 AND state IN ('processando', 'erro')`, assetID, reason)
}

// exec runs one update of assetID; a missing asset is ENOTFOUND (an update
// that matched no row because of its state is not an error: the activities
// retry, and a later state wins).
func (s *Service) exec(ctx context.Context, assetID, sql string, args ...any) error {
	if !validID(assetID) {
		return core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	tag, err := s.pool.Exec(ctx, sql, args...)
	if err != nil {
		return fmt.Errorf("media: update %s: %w", assetID, err)
	}
	if tag.RowsAffected() == 0 {
		var exists bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM media_assets WHERE id = $1)`, assetID).Scan(&exists); err != nil {
			return fmt.Errorf("media: update %s: %w", assetID, err)
		}
		if !exists {
			return core.Errorf(core.ENOTFOUND, MsgNotFound)
		}
	}
	return nil
}

// moveDir moves every regular file under dir into the private store below
// prefix, keeping their relative names: a stream is served only through
// signed addresses (StreamPath).
func (s *Service) moveDir(ctx context.Context, dir, prefix string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		key := prefix + "/" + filepath.ToSlash(rel)
		if err := s.private.PutFile(ctx, key, "", p); err != nil {
			return fmt.Errorf("media: store %s: %w", key, err)
		}
		return nil
	})
}

// relativeKey reports whether p is a plain relative slash path.
func relativeKey(p string) bool {
	return p != "" && p != "." && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "..") && !strings.Contains(p, "/../")
}

// demuxerOf is the ffmpeg demuxer of a video original, from the extension
// its sniffed format gave its key.
func demuxerOf(key string) string {
	switch path.Ext(key) {
	case ".webm", ".mkv":
		return "matroska"
	}
	return "mov"
}
