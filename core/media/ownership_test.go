package media_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/media"
)

// A tus upload belongs to the staff member who created it: another editor
// who learns its name can neither read its offset, add bytes to it, cancel
// it nor find its asset through it, and the library never shows the name.
func TestUploadsAreBoundToTheirUploader(t *testing.T) {
	e := newEnv(t)
	pdf := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	res := e.create("Apostila da Ana.pdf", "application/pdf", int64(len(pdf)))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	loc, id := res.Header.Get("Location"), res.Header.Get(media.AssetIDHeader)
	uploadID := loc[strings.LastIndex(loc, "/")+1:]
	if r := e.patch(loc, 0, pdf[:10]); r.Status != http.StatusNoContent {
		t.Fatalf("owner's first chunk: %d %s", r.Status, r.Body)
	}

	// The library's JSON never carries the upload's name.
	for _, body := range [][]byte{e.staff.Do("GET", "/api/admin/media/"+id, nil).Body, e.staff.Do("GET", "/api/admin/media", nil).Body} {
		if bytes.Contains(body, []byte(uploadID)) || bytes.Contains(body, []byte(`"upload_id"`)) {
			t.Fatalf("the library shows the upload id: %s", body)
		}
	}

	other, _ := e.srv.SignedIn(t, "outra-editora@vetclube.test", core.RoleEditor)
	send := func(method string, body []byte, offset int) int {
		req, _ := http.NewRequest(method, loc, bytes.NewReader(body))
		req.Header.Set("Tus-Resumable", "1.0.0")
		if method == http.MethodPatch {
			req.Header.Set("Upload-Offset", strconv.Itoa(offset))
			req.Header.Set("Content-Type", "application/offset+octet-stream")
		}
		return other.Send(req).Status
	}
	if st := send(http.MethodHead, nil, 0); st != http.StatusNotFound {
		t.Errorf("HEAD of another's upload: %d", st)
	}
	if st := send(http.MethodPatch, []byte("XXXXXXXXXXXXXXXX"), 10); st != http.StatusNotFound {
		t.Errorf("PATCH of another's upload: %d", st)
	}
	if st := send(http.MethodDelete, nil, 0); st != http.StatusNotFound {
		t.Errorf("DELETE of another's upload: %d", st)
	}
	if r := other.Do("GET", media.UploadsPath+uploadID, nil); r.Status != http.StatusNotFound {
		t.Errorf("GET of another's upload: %d %s", r.Status, r.Body)
	}
	var found []media.Asset
	other.Do("GET", "/api/admin/media?upload_id="+uploadID, nil).JSON(t, &found)
	if len(found) != 0 {
		t.Errorf("another editor finds the asset by its upload: %+v", found)
	}

	// The owner's upload is untouched and completes with their own bytes.
	h := e.head(loc)
	if h.Status != http.StatusOK || h.Header.Get("Upload-Offset") != "10" {
		t.Fatalf("owner's HEAD: %d offset %q", h.Status, h.Header.Get("Upload-Offset"))
	}
	if r := e.patch(loc, 10, pdf[10:]); r.Status != http.StatusNoContent || r.Header.Get(media.AssetStateHeader) != string(media.StateReady) {
		t.Fatalf("owner's last chunk: %d %s", r.Status, r.Body)
	}
	var mine []media.Asset
	e.staff.Do("GET", "/api/admin/media?upload_id="+uploadID, nil).JSON(t, &mine)
	if len(mine) != 1 || mine[0].ID != id {
		t.Errorf("the uploader finds the asset of their upload: %+v", mine)
	}
	got := e.staff.Do("GET", e.get(id).URL, nil)
	if !bytes.Equal(got.Body, pdf) {
		t.Errorf("stored bytes differ from the owner's: %q", got.Body)
	}
}

// Staff delete their own files; another person's only a reviewer or a
// super admin may, and every deletion is recorded with who made it.
func TestDeletingOthersAssetsNeedsAReviewerAndIsAudited(t *testing.T) {
	e := newEnv(t)
	pdf := []byte("%PDF-1.4\n%%EOF\n")
	mine, _ := e.upload("minha.pdf", "application/pdf", pdf)
	theirs, _ := e.upload("da-ana.pdf", "application/pdf", pdf)
	alsoTheirs, _ := e.upload("da-ana-2.pdf", "application/pdf", pdf)

	other, _ := e.srv.SignedIn(t, "outra-editora@vetclube.test", core.RoleEditor)
	if r := other.Do("DELETE", "/api/admin/media/"+theirs, nil); r.Status != http.StatusForbidden || r.ErrorMessage() != media.MsgDeleteOthers {
		t.Fatalf("editor deleting another's asset: %d %s", r.Status, r.Body)
	}
	if a := e.get(theirs); a.State != media.StateReady {
		t.Fatalf("refused deletion changed the asset: %+v", a)
	}
	if r := e.staff.Do("DELETE", "/api/admin/media/"+mine, nil); r.Status != http.StatusNoContent {
		t.Fatalf("owner deleting their asset: %d %s", r.Status, r.Body)
	}
	revisor, revisorID := e.srv.SignedIn(t, "revisora@vetclube.test", "revisor")
	if r := revisor.Do("DELETE", "/api/admin/media/"+theirs, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revisor deleting another's asset: %d %s", r.Status, r.Body)
	}
	admin, adminID := e.srv.SignedIn(t, "super@vetclube.test", core.RoleSuperAdmin)
	if r := admin.Do("DELETE", "/api/admin/media/"+alsoTheirs, nil); r.Status != http.StatusNoContent {
		t.Fatalf("super admin deleting another's asset: %d %s", r.Status, r.Body)
	}

	rows, err := e.srv.App.Pool.Query(e.ctx, `SELECT asset_id::text, action, actor_id::text, original_name, uploaded_by::text
		FROM media_events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var asset, action, actor, name, by string
		if err := rows.Scan(&asset, &action, &actor, &name, &by); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{asset, action, actor, name, by}, " "))
	}
	want := []string{
		mine + " excluido " + e.staffID + " minha.pdf " + e.staffID,
		theirs + " excluido " + revisorID + " da-ana.pdf " + e.staffID,
		alsoTheirs + " excluido " + adminID + " da-ana-2.pdf " + e.staffID,
	}
	if b, _ := json.Marshal(got); !slices.Equal(got, want) {
		t.Errorf("media_events:\n%s\nwant\n%v", b, want)
	}
}

// Staff stop a video's processing: the asset is in erro at once with a
// pt-BR reason, the running attempt's workflow is cancelled, the
// cancellation is audited, and a retry starts a new attempt.
func TestStaffCancelProcessing(t *testing.T) {
	e := newEnv(t)
	id, res := e.upload("aula-longa.mp4", "video/mp4", sampleVideo(t))
	if res.Status != http.StatusNoContent || e.get(id).State != media.StateProcessing {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	other, _ := e.srv.SignedIn(t, "outra-editora@vetclube.test", core.RoleEditor)
	if r := other.Do("POST", "/api/admin/media/"+id+"/cancel", nil); r.Status != http.StatusForbidden || r.ErrorMessage() != media.MsgCancelOthers {
		t.Fatalf("another editor cancelling: %d %s", r.Status, r.Body)
	}
	r := e.staff.Do("POST", "/api/admin/media/"+id+"/cancel", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	var a media.Asset
	r.JSON(t, &a)
	if a.State != media.StateFailed || a.Error != media.MsgProcessingCancelled {
		t.Fatalf("after cancel: %s %q", a.State, a.Error)
	}
	if got := e.proc.cancelled(); !slices.Equal(got, []string{id + "#1"}) {
		t.Errorf("workflows cancelled %v, want attempt 1", got)
	}
	if r := e.staff.Do("POST", "/api/admin/media/"+id+"/cancel", nil); r.Status != http.StatusConflict || r.ErrorMessage() != media.MsgCancelNotBusy {
		t.Errorf("cancel of a video in erro: %d %s", r.Status, r.Body)
	}
	var actor, action string
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT actor_id::text, action FROM media_events WHERE asset_id = $1`, id).Scan(&actor, &action); err != nil ||
		actor != e.staffID || action != "processamento_cancelado" {
		t.Errorf("audit of the cancellation: %q %q %v", actor, action, err)
	}
	if r := e.staff.Do("POST", "/api/admin/media/"+id+"/retry", nil); r.Status != http.StatusAccepted {
		t.Fatalf("retry after cancel: %d %s", r.Status, r.Body)
	}
	if calls := e.proc.calls(); !slices.Equal(calls, []string{id + "#1", id + "#2"}) {
		t.Errorf("starts %v", calls)
	}
	pdf, _ := e.upload("apostila.pdf", "application/pdf", []byte("%PDF-1.4\n%%EOF\n"))
	if r := e.staff.Do("POST", "/api/admin/media/"+pdf+"/cancel", nil); r.Status != http.StatusConflict {
		t.Errorf("cancel of a PDF: %d %s", r.Status, r.Body)
	}
}
