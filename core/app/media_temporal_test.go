package app_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/media"
)

// TestUploadedVideoBecomesAStreamThroughTemporal: a video uploaded through
// tus is processed by the real media workflow on the embedded Temporal
// server, with real ffmpeg, through the app's own wiring, and its HLS
// stream and poster are served.
func TestUploadedVideoBecomesAStreamThroughTemporal(t *testing.T) {
	dev := apptest.TemporalDev(t)
	srv := apptest.Start(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr})
	staff, _ := srv.SignedIn(t, "editora@vetclube.test", core.RoleEditor)

	clip := filepath.Join(t.TempDir(), "aula.mp4")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=3:size=480x270:rate=25",
		"-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-shortest", "-pix_fmt", "yuv420p", "-c:v", "libx264",
		"-preset", "ultrafast", "-c:a", "aac", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	video, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", staff.URLFor(media.UploadsPath), nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", strconv.Itoa(len(video)))
	req.Header.Set("Upload-Metadata", "filename "+base64.StdEncoding.EncodeToString([]byte("aula.mp4"))+",filetype "+
		base64.StdEncoding.EncodeToString([]byte("video/mp4")))
	res := staff.Send(req)
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id := res.Header.Get(media.AssetIDHeader)
	req, _ = http.NewRequest("PATCH", res.Header.Get("Location"), bytes.NewReader(video))
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", "0")
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	if res := staff.Send(req); res.Status != http.StatusNoContent || res.Header.Get(media.AssetStateHeader) != "processando" {
		t.Fatalf("upload: %d %s %s", res.Status, res.Header.Get(media.AssetStateHeader), res.Body)
	}

	var a media.Asset
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
		r := staff.Do("GET", "/api/admin/media/"+id, nil)
		r.JSON(t, &a)
		if a.State == media.StateReady || a.State == media.StateFailed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %s (%d %%) after 3 minutes", a.State, a.ProgressPercent)
		}
	}
	if a.State != media.StateReady || a.ProgressPercent != 100 || a.Width != 480 || a.Height != 270 ||
		a.DurationSeconds < 2.5 || a.DurationSeconds > 3.5 || a.PosterURL == "" || len(a.ThumbnailURLs) != 3 {
		t.Fatalf("processed asset: %+v", a)
	}
	master := staff.Do("GET", a.HLSURL, nil)
	if master.Status != http.StatusOK || master.Header.Get("Content-Type") != "application/vnd.apple.mpegurl" ||
		!strings.Contains(string(master.Body), "#EXT-X-STREAM-INF:") || !strings.Contains(string(master.Body), "360p/index.m3u8") {
		t.Fatalf("master: %d %s\n%s", master.Status, master.Header.Get("Content-Type"), master.Body)
	}
	base := strings.TrimSuffix(a.HLSURL, "master.m3u8")
	rendition := staff.Do("GET", base+"360p/index.m3u8", nil)
	if rendition.Status != http.StatusOK || !strings.Contains(string(rendition.Body), "#EXT-X-ENDLIST") {
		t.Fatalf("rendition playlist: %d\n%s", rendition.Status, rendition.Body)
	}
	var segment string
	for _, line := range strings.Split(string(rendition.Body), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			segment = line
			break
		}
	}
	req, _ = http.NewRequest("GET", staff.URLFor(base+"360p/"+segment), nil)
	req.Header.Set("Range", "bytes=0-187")
	if seg := staff.Send(req); seg.Status != http.StatusPartialContent || len(seg.Body) != 188 || seg.Body[0] != 0x47 {
		t.Errorf("first TS packet of %s: %d, %d bytes", segment, seg.Status, len(seg.Body))
	}
	if p := staff.Do("GET", a.PosterURL, nil); p.Status != http.StatusOK || p.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("poster: %d %s", p.Status, p.Header.Get("Content-Type"))
	}
}

// TestCorruptVideoEndsInErroWithTheOriginalKept: bytes that look like an
// MP4 to the upload check (a valid ftyp box) but hold no playable video go
// through the real workflow on the embedded Temporal server and end in
// erro with a pt-BR reason; the original stays in the private store, and
// 'Tentar novamente' starts a second attempt that fails the same way.
func TestCorruptVideoEndsInErroWithTheOriginalKept(t *testing.T) {
	dev := apptest.TemporalDev(t)
	srv := apptest.Start(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr})
	staff, _ := srv.SignedIn(t, "editora@vetclube.test", core.RoleEditor)

	// An ftyp box (isom) followed by noise: passes the byte check, not ffprobe.
	corrupt := append([]byte{0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm', 0, 0, 2, 0, 'i', 's', 'o', 'm', 'm', 'p', '4', '1'},
		bytes.Repeat([]byte("quebrado "), 4000)...)
	req, _ := http.NewRequest("POST", staff.URLFor(media.UploadsPath), nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", strconv.Itoa(len(corrupt)))
	req.Header.Set("Upload-Metadata", "filename "+base64.StdEncoding.EncodeToString([]byte("corrompido.mp4"))+",filetype "+
		base64.StdEncoding.EncodeToString([]byte("video/mp4")))
	res := staff.Send(req)
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id := res.Header.Get(media.AssetIDHeader)
	req, _ = http.NewRequest("PATCH", res.Header.Get("Location"), bytes.NewReader(corrupt))
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", "0")
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	if res := staff.Send(req); res.Status != http.StatusNoContent || res.Header.Get(media.AssetStateHeader) != "processando" {
		t.Fatalf("upload: %d %s %s", res.Status, res.Header.Get(media.AssetStateHeader), res.Body)
	}

	waitSettled := func(attempt int) media.Asset {
		t.Helper()
		var a media.Asset
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(250 * time.Millisecond) {
			staff.Do("GET", "/api/admin/media/"+id, nil).JSON(t, &a)
			if a.Attempt == attempt && (a.State == media.StateReady || a.State == media.StateFailed) {
				return a
			}
			if time.Now().After(deadline) {
				t.Fatalf("attempt %d still %s after 2 minutes", attempt, a.State)
			}
		}
	}
	a := waitSettled(1)
	if a.State != media.StateFailed || !strings.HasPrefix(a.Error, "O arquivo não pôde ser lido como vídeo") || a.HLSURL != "" {
		t.Fatalf("corrupt video: %s %q %q", a.State, a.Error, a.HLSURL)
	}
	src, err := srv.App.Media.Source(t.Context(), id)
	if err != nil {
		t.Fatalf("original of the failed video: %v", err)
	}
	if kept, err := os.ReadFile(src.Path); err != nil || !bytes.Equal(kept, corrupt) {
		t.Fatalf("original not kept byte for byte: %v", err)
	}
	if r := staff.Do("POST", "/api/admin/media/"+id+"/retry", nil); r.Status != http.StatusAccepted {
		t.Fatalf("retry: %d %s", r.Status, r.Body)
	}
	if a := waitSettled(2); a.State != media.StateFailed || a.Error == "" {
		t.Fatalf("second attempt: %s %q", a.State, a.Error)
	}
}

// TestStaffCancelStopsTheRunningTranscode: staff cancel a video while
// ffmpeg encodes it; the asset is in erro with the cancellation's reason,
// the workflow ends cancelled, the running transcode stops (its step
// directory goes), and nothing makes the asset pronto afterwards.
func TestStaffCancelStopsTheRunningTranscode(t *testing.T) {
	dev := apptest.TemporalDev(t)
	srv := apptest.Start(t, map[string]string{"TEMPORAL_ADDRESS": dev.Addr})
	staff, _ := srv.SignedIn(t, "editora@vetclube.test", core.RoleEditor)

	clip := filepath.Join(t.TempDir(), "longa.mp4")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=duration=120:size=1280x720:rate=25",
		"-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	video, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", staff.URLFor(media.UploadsPath), nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", strconv.Itoa(len(video)))
	req.Header.Set("Upload-Metadata", "filename "+base64.StdEncoding.EncodeToString([]byte("longa.mp4")))
	res := staff.Send(req)
	id := res.Header.Get(media.AssetIDHeader)
	req, _ = http.NewRequest("PATCH", res.Header.Get("Location"), bytes.NewReader(video))
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", "0")
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	if res := staff.Send(req); res.Status != http.StatusNoContent {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	work := filepath.Join(srv.Env["DATA_DIR"], "media-work")
	stepDirs := func() int {
		entries, _ := os.ReadDir(work)
		return len(entries)
	}
	// Cancel once the first rendition is being encoded.
	var a media.Asset
	for deadline := time.Now().Add(3 * time.Minute); a.Progress["360p"] == 0 || stepDirs() == 0; time.Sleep(200 * time.Millisecond) {
		staff.Do("GET", "/api/admin/media/"+id, nil).JSON(t, &a)
		if a.State != media.StateProcessing || time.Now().After(deadline) {
			t.Fatalf("never seen transcoding: %s %v", a.State, a.Progress)
		}
	}
	r := staff.Do("POST", "/api/admin/media/"+id+"/cancel", nil)
	r.JSON(t, &a)
	if r.Status != http.StatusOK || a.State != media.StateFailed || a.Error != media.MsgProcessingCancelled {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	run := srv.App.Engagement.Temporal.GetWorkflow(t.Context(), "media-"+id+"-1", "")
	if err := run.Get(t.Context(), nil); !temporal.IsCanceledError(err) {
		t.Fatalf("workflow ended with %v, want cancelled", err)
	}
	for deadline := time.Now().Add(time.Minute); stepDirs() != 0; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the transcode's step directory is still there a minute after the cancellation")
		}
	}
	staff.Do("GET", "/api/admin/media/"+id, nil).JSON(t, &a)
	if a.State != media.StateFailed || a.Error != media.MsgProcessingCancelled || a.HLSURL != "" {
		t.Errorf("after the workflow ended: %s %q %q", a.State, a.Error, a.HLSURL)
	}
}
