package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

const (
	anaID = "7b1c2d3e-0000-4000-8000-000000000001"
	biaID = "7b1c2d3e-0000-4000-8000-000000000002"
)

var testNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

type kit struct {
	t    *testing.T
	host *sdktest.Host
	h    http.Handler
	subs map[string]string
}

func newKit(t *testing.T) *kit {
	host := sdktest.New(t, sdktest.WithSQL(Migrations), sdktest.WithStart(testNow))
	host.SetLimit(limitName, 10)
	host.SetProfile(sdk.Profile{UserID: anaID, FirstName: "Ana", LastName: "Lima", CRMV: "CRMV-SP 12345"})
	host.SetProfile(sdk.Profile{UserID: biaID, FirstName: "Bia", LastName: "Souza"})
	h := newAPI(host.Host, hostServices(host.Host), func() time.Time { return testNow }).routes()
	return &kit{t: t, host: host, h: h, subs: map[string]string{}}
}

type reply struct {
	status int
	body   []byte
	header http.Header
}

func (k *kit) do(userID, method, path string, body any) reply {
	k.t.Helper()
	var b []byte
	switch v := body.(type) {
	case nil:
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(body); err != nil {
			k.t.Fatal(err)
		}
	}
	u := sdktest.User(userID)
	if s := k.subs[userID]; s != "" {
		u.Subscription = s
	}
	r := k.host.As(httptest.NewRequest(method, path, bytes.NewReader(b)), u)
	rec := httptest.NewRecorder()
	k.h.ServeHTTP(rec, r)
	return reply{rec.Code, rec.Body.Bytes(), rec.Header()}
}

func (r reply) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

type errBody struct {
	Error struct {
		Code    string
		Message string
		Fields  map[string]string
	}
	Upgrade bool
}

func (r reply) err(t *testing.T) errBody {
	var e errBody
	r.decode(t, &e)
	var wrapped struct{ Error struct{ Upgrade bool } }
	r.decode(t, &wrapped)
	e.Upgrade = e.Upgrade || wrapped.Error.Upgrade
	return e
}

func rex() map[string]any {
	return map[string]any{"name": "Rex", "species": "cao", "breed": "Vira-lata", "sex": "macho", "neutered": true,
		"birth_date": "2020-05-01", "microchip": "982000123456789", "coat": "Caramelo", "weight_kg": 12.5,
		"tutor":     map[string]any{"name": "João Gonçalves", "phone": "(11) 98765-4321", "email": "joao@example.com", "cpf": "529.982.247-25", "address": "Rua A, 10"},
		"allergies": "Dipirona"}
}

func (k *kit) createPatient(userID string, body map[string]any) Patient {
	k.t.Helper()
	res := k.do(userID, "POST", "/patients", body)
	if res.status != 201 {
		k.t.Fatalf("create patient: %d %s", res.status, res.body)
	}
	var p Patient
	res.decode(k.t, &p)
	return p
}

func TestPatientIsCreatedSearchedAndPrivate(t *testing.T) {
	k := newKit(t)
	p := k.createPatient(anaID, rex())
	if p.Name != "Rex" || p.SpeciesLabel != "Cão" || p.WhatsApp != "https://wa.me/5511987654321" || p.Data.Tutor.CPF != "529.982.247-25" || p.LatestKg == nil || *p.LatestKg != 12.5 {
		t.Fatalf("patient: %+v", p)
	}
	for _, q := range []string{"rex", "JOAO", "gonçalves", "123456789", "vira"} {
		var list struct {
			Items []Patient
			Total int
		}
		k.do(anaID, "GET", "/patients?q="+urlq(q), nil).decode(t, &list)
		if list.Total != 1 || len(list.Items) != 1 {
			t.Errorf("search %q: %+v", q, list)
		}
	}
	var none struct{ Total int }
	k.do(anaID, "GET", "/patients?species=gato", nil).decode(t, &none)
	if none.Total != 0 {
		t.Errorf("species filter: %+v", none)
	}
	k.do(anaID, "GET", "/patients?q=%25", nil).decode(t, &none)
	if none.Total != 0 {
		t.Errorf("a %% must be literal: %+v", none)
	}
	// Another member sees nothing of it and changes nothing: 404 everywhere.
	rec := k.do(anaID, "POST", "/patients/"+p.ID+"/records", map[string]any{"kind": "nota", "data": map[string]any{"text": "Ok"}})
	if rec.status != 201 {
		t.Fatalf("record: %d %s", rec.status, rec.body)
	}
	var r Record
	rec.decode(t, &r)
	for _, c := range []struct{ method, path string }{
		{"GET", "/patients/" + p.ID}, {"PUT", "/patients/" + p.ID}, {"POST", "/patients/" + p.ID + "/archive"},
		{"POST", "/patients/" + p.ID + "/unarchive"}, {"GET", "/patients/" + p.ID + "/history"}, {"GET", "/patients/" + p.ID + "/records"},
		{"POST", "/patients/" + p.ID + "/records"}, {"GET", "/patients/" + p.ID + "/weights"}, {"GET", "/patients/" + p.ID + "/pdf"},
		{"GET", "/records/" + r.ID}, {"PUT", "/records/" + r.ID}, {"GET", "/records/" + r.ID + "/revisions"}, {"GET", "/records/" + r.ID + "/pdf"},
	} {
		var body any
		if c.method != "GET" {
			body = map[string]any{"name": "Hack", "species": "cao", "kind": "nota", "data": map[string]any{"text": "x"}, "version": 1}
		}
		if res := k.do(biaID, c.method, c.path, body); res.status != 404 {
			t.Errorf("%s %s as another member: %d %s", c.method, c.path, res.status, res.body)
		}
	}
	var list struct{ Total int }
	k.do(biaID, "GET", "/patients", nil).decode(t, &list)
	var exp struct{ Patients []exportPatient }
	k.do(biaID, "GET", "/export", nil).decode(t, &exp)
	if list.Total != 0 || len(exp.Patients) != 0 {
		t.Errorf("another member lists %d patients, exports %d", list.Total, len(exp.Patients))
	}
	var again Patient
	k.do(anaID, "GET", "/patients/"+p.ID, nil).decode(t, &again)
	if again.Name != "Rex" || again.Version != 1 {
		t.Errorf("patient changed by another member: %+v", again)
	}
}

func urlq(s string) string { return strings.ReplaceAll(s, " ", "%20") }

func TestHostilePatientInputs(t *testing.T) {
	k := newKit(t)
	cases := []struct {
		patch map[string]any
		field string
	}{
		{map[string]any{"name": "  "}, "name"},
		{map[string]any{"name": strings.Repeat("x", 81)}, "name"},
		{map[string]any{"species": "dragao"}, "species"},
		{map[string]any{"sex": "x"}, "sex"},
		{map[string]any{"birth_date": "2030-01-01"}, "birth_date"},
		{map[string]any{"birth_date": "01/02/2020"}, "birth_date"},
		{map[string]any{"microchip": "12-34"}, "microchip"},
		{map[string]any{"weight_kg": 300}, "weight_kg"},
		{map[string]any{"weight_kg": -1}, "weight_kg"},
		{map[string]any{"tutor": map[string]any{"cpf": "529.982.247-24"}}, "tutor.cpf"},
		{map[string]any{"tutor": map[string]any{"cpf": "111.111.111-11"}}, "tutor.cpf"},
		{map[string]any{"tutor": map[string]any{"email": "a@"}}, "tutor.email"},
		{map[string]any{"tutor": map[string]any{"phone": "123"}}, "tutor.phone"},
		{map[string]any{"photo_file_id": "../../etc/passwd"}, "photo_file_id"},
	}
	for _, c := range cases {
		body := rex()
		for key, v := range c.patch {
			body[key] = v
		}
		res := k.do(anaID, "POST", "/patients", body)
		if res.status != 422 || res.err(t).Error.Fields[c.field] == "" {
			t.Errorf("%v: %d %s", c.patch, res.status, res.body)
		}
	}
	for _, raw := range []string{`{"name":"Re\u0000x","species":"cao"}`, `[1,2]`, `{"name":`} {
		if res := k.do(anaID, "POST", "/patients", raw); res.status < 400 || res.status >= 500 {
			t.Errorf("%s: %d %s", raw, res.status, res.body)
		}
	}
	for _, path := range []string{"/patients/not-a-uuid", "/patients/7b1c2d3e-0000-4000-8000-00000000ffff", "/records/x'--"} {
		if res := k.do(anaID, "GET", path, nil); res.status != 404 || !strings.Contains(res.err(t).Error.Message, "não encontrado") {
			t.Errorf("%s: %d %s", path, res.status, res.body)
		}
	}
	for _, path := range []string{"/patients?page=0", "/patients?per_page=1000", "/patients?species=x", "/vaccines/upcoming?days=9999", "/export?format=xml"} {
		if res := k.do(anaID, "GET", path, nil); res.status != 422 {
			t.Errorf("%s: %d %s", path, res.status, res.body)
		}
	}
	if k.do(anaID, "GET", "/patients", nil).status != 200 {
		t.Fatal("list after hostile inputs")
	}
}

func TestRecordsVitalsHistoryAndPDF(t *testing.T) {
	k := newKit(t)
	p := k.createPatient(anaID, rex())
	res := k.do(anaID, "POST", "/patients/"+p.ID+"/records", map[string]any{"kind": "consulta", "date": "2026-03-09", "data": map[string]any{
		"anamnesis": "Apatia há dois dias.", "temperature_c": 40.3, "heart_rate": 100, "respiratory_rate": 8, "weight_kg": 12.1,
		"diagnoses": "Cinomose?", "plan": "Hemograma."}})
	if res.status != 201 {
		t.Fatalf("consultation: %d %s", res.status, res.body)
	}
	var c Record
	res.decode(t, &c)
	if c.Vitals["temperature_c"].Status != "alto" || c.Vitals["heart_rate"].Status != "normal" || c.Vitals["respiratory_rate"].Status != "baixo" ||
		*c.Vitals["temperature_c"].Max != 39.2 {
		t.Fatalf("vitals: %+v", c.Vitals)
	}
	// Prescription: the dose comes from the calculators' formula.
	res = k.do(anaID, "POST", "/patients/"+p.ID+"/records", map[string]any{"kind": "prescricao", "date": "2026-03-09", "data": map[string]any{
		"drug": "Amoxicilina", "concentration_mg_ml": 50, "dose_mg_kg": 20, "weight_kg": 12.5, "route": "Oral",
		"frequency": "A cada 12 horas", "duration": "7 dias", "dose_mg": 1, "volume_ml": 1}})
	if res.status != 201 {
		t.Fatalf("prescription: %d %s", res.status, res.body)
	}
	var rx Record
	res.decode(t, &rx)
	if *rx.Data.DoseMg != 250 || *rx.Data.VolumeML != 5 {
		t.Fatalf("dose: %+v", rx.Data)
	}
	if res := k.do(anaID, "POST", "/patients/"+p.ID+"/records", map[string]any{"kind": "prescricao", "data": map[string]any{"drug": "X", "route": "VO"}}); res.status != 422 ||
		res.err(t).Error.Fields["route"] == "" || res.err(t).Error.Fields["frequency"] == "" || res.err(t).Error.Fields["dose_mg_kg"] == "" {
		t.Errorf("incomplete prescription: %d %s", res.status, res.body)
	}
	pdf := k.do(anaID, "GET", "/records/"+rx.ID+"/pdf", nil)
	if pdf.status != 200 || pdf.header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(pdf.body, []byte("%PDF")) {
		t.Fatalf("prescription pdf: %d %s", pdf.status, pdf.header)
	}
	if k.do(anaID, "GET", "/records/"+c.ID+"/pdf", nil).status != 422 {
		t.Error("a consultation printed as a prescription")
	}
	// An edit keeps the previous text; a stale version is refused.
	res = k.do(anaID, "PUT", "/records/"+c.ID, map[string]any{"date": "2026-03-09", "version": 1, "data": map[string]any{"anamnesis": "Apatia há três dias."}})
	if res.status != 200 {
		t.Fatalf("edit: %d %s", res.status, res.body)
	}
	if res := k.do(anaID, "PUT", "/records/"+c.ID, map[string]any{"version": 1, "data": map[string]any{"anamnesis": "Outra"}}); res.status != 409 {
		t.Errorf("stale edit: %d %s", res.status, res.body)
	}
	if res := k.do(anaID, "PUT", "/records/"+c.ID, map[string]any{"kind": "nota", "version": 2, "data": map[string]any{"text": "x"}}); res.status != 422 {
		t.Errorf("kind change: %d %s", res.status, res.body)
	}
	var hist struct{ Items []recordRevision }
	k.do(anaID, "GET", "/records/"+c.ID+"/revisions", nil).decode(t, &hist)
	if len(hist.Items) != 1 || hist.Items[0].Data.Anamnesis != "Apatia há dois dias." || hist.Items[0].EditedBy != "Ana Lima" {
		t.Fatalf("history: %+v", hist)
	}
	var list struct {
		Items []Record
		Total int
	}
	k.do(anaID, "GET", "/patients/"+p.ID+"/records", nil).decode(t, &list)
	if list.Total != 3 || list.Items[0].Kind != KindWeight || list.Items[2].Kind != KindConsultation || list.Items[2].Revisions != 1 {
		t.Fatalf("records newest first: %+v", list)
	}
	var ws struct{ Items []weightPoint }
	k.do(anaID, "GET", "/patients/"+p.ID+"/weights", nil).decode(t, &ws)
	if len(ws.Items) != 1 || ws.Items[0].Kg != 12.5 { // the edit above dropped the consultation's weight
		t.Fatalf("weights: %+v", ws)
	}
	full := k.do(anaID, "GET", "/patients/"+p.ID+"/pdf", nil)
	if full.status != 200 || !bytes.HasPrefix(full.body, []byte("%PDF")) || len(full.body) < 1500 {
		t.Fatalf("record pdf: %d %d bytes", full.status, len(full.body))
	}
	// Patient edits keep history too.
	body := rex()
	body["name"], body["version"] = "Rex II", 1
	if res := k.do(anaID, "PUT", "/patients/"+p.ID, body); res.status != 200 {
		t.Fatalf("patient edit: %d %s", res.status, res.body)
	}
	var ph struct{ Items []revision }
	k.do(anaID, "GET", "/patients/"+p.ID+"/history", nil).decode(t, &ph)
	if len(ph.Items) != 1 || ph.Items[0].Previous["name"] != "Rex" {
		t.Fatalf("patient history: %+v", ph)
	}
}

// recordID returns the id of a created record.
func (k *kit) addRecord(userID, patientID string, body map[string]any) string {
	k.t.Helper()
	res := k.do(userID, "POST", "/patients/"+patientID+"/records", body)
	if res.status != 201 {
		k.t.Fatalf("record: %d %s", res.status, res.body)
	}
	var rec struct{ ID string }
	res.decode(k.t, &rec)
	return rec.ID
}

// scheduled returns the pending reminders as "key@RFC3339 UTC".
func (k *kit) scheduled() map[string]string {
	out := map[string]string{}
	for _, s := range k.host.Scheduled() {
		out[s.Key] = s.At.UTC().Format(time.RFC3339)
	}
	return out
}

// A vaccination with a next dose schedules its reminders with the core: the
// morning of the due day (08:00 Brasília, 11:00 UTC) and 7 days before when
// that is still ahead. Editing the date moves them, a later dose of the same
// vaccine replaces them, archiving the patient cancels them, restoring it
// brings them back, deleting the member's data cancels all; each reminder is
// delivered once when due, and only to its vet.
func TestVaccineRemindersAreScheduled(t *testing.T) {
	k := newKit(t)
	p := k.createPatient(anaID, rex())
	v10 := k.addRecord(anaID, p.ID, map[string]any{"kind": "vacina", "date": "2025-03-14", "data": map[string]any{"vaccine": "V10", "lot": "A1", "next_dose": "2026-03-14"}})
	raiva := k.addRecord(anaID, p.ID, map[string]any{"kind": "vacina", "date": "2026-03-01", "data": map[string]any{"vaccine": "Antirrábica", "next_dose": "2027-03-01"}})
	if res := k.do(anaID, "POST", "/patients/"+p.ID+"/records", map[string]any{"kind": "vacina", "date": "2026-03-01", "data": map[string]any{"vaccine": "V10", "next_dose": "2026-02-01"}}); res.status != 422 {
		t.Errorf("next dose before the vaccination: %d", res.status)
	}
	pre := "vacina:" + p.ID + ":"
	want := map[string]string{
		// V10's early reminder (07/03) is already past on 10/03.
		pre + v10 + ":dia":     "2026-03-14T11:00:00Z",
		pre + raiva + ":antes": "2027-02-22T11:00:00Z",
		pre + raiva + ":dia":   "2027-03-01T11:00:00Z",
	}
	if got := k.scheduled(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("scheduled:\n got %v\nwant %v", got, want)
	}
	for _, s := range k.host.Scheduled() {
		if s.UserID != anaID || s.Link != "/ferramentas/prontuario-vet?paciente="+p.ID || !strings.Contains(s.Title, "Rex") {
			t.Fatalf("reminder %+v", s)
		}
	}

	// The vet moves V10's date: both moments follow.
	var rec struct{ Version int }
	k.do(anaID, "GET", "/records/"+v10, nil).decode(t, &rec)
	if res := k.do(anaID, "PUT", "/records/"+v10, map[string]any{"version": rec.Version, "date": "2025-03-14",
		"data": map[string]any{"vaccine": "V10", "lot": "A1", "next_dose": "2026-03-20"}}); res.status != 200 {
		t.Fatalf("edit: %d %s", res.status, res.body)
	}
	got := k.scheduled()
	if got[pre+v10+":dia"] != "2026-03-20T11:00:00Z" || got[pre+v10+":antes"] != "2026-03-13T11:00:00Z" || len(got) != 4 {
		t.Fatalf("after moving the date: %v", got)
	}

	// Another member's patients and calls never touch Ana's reminders.
	q := k.createPatient(biaID, rex())
	k.addRecord(biaID, q.ID, map[string]any{"kind": "nota", "data": map[string]any{"text": "ok"}})
	if res := k.do(biaID, "POST", "/patients/"+p.ID+"/archive", nil); res.status != 404 {
		t.Fatalf("another vet archived Ana's patient: %d", res.status)
	}
	if len(k.scheduled()) != 4 {
		t.Fatalf("after Bia's calls: %v", k.scheduled())
	}

	// Archived: nothing pending; restored: everything back.
	if res := k.do(anaID, "POST", "/patients/"+p.ID+"/archive", nil); res.status != 200 {
		t.Fatalf("archive: %d %s", res.status, res.body)
	}
	if got := k.scheduled(); len(got) != 0 {
		t.Fatalf("an archived patient keeps reminders: %v", got)
	}
	if res := k.do(anaID, "POST", "/patients/"+p.ID+"/unarchive", nil); res.status != 200 {
		t.Fatalf("unarchive: %d %s", res.status, res.body)
	}
	if got := k.scheduled(); len(got) != 4 {
		t.Fatalf("restored patient's reminders: %v", got)
	}

	// The next V10 dose given on 12/03 supersedes the earlier record.
	v10b := k.addRecord(anaID, p.ID, map[string]any{"kind": "vacina", "date": "2026-03-10", "data": map[string]any{"vaccine": "V10", "next_dose": "2027-03-10"}})
	got = k.scheduled()
	if _, stale := got[pre+v10+":dia"]; stale || got[pre+v10b+":dia"] != "2027-03-10T11:00:00Z" || len(got) != 4 {
		t.Fatalf("after the next dose: %v", got)
	}

	// Delivered when due, once each.
	k.host.Clock.Advance(time.Date(2027, 2, 22, 11, 0, 0, 0, time.UTC).Sub(k.host.Clock.Now()))
	if n := k.host.DeliverDue(); n != 1 {
		t.Fatalf("due on 22/02/2027: %d", n)
	}
	if n := k.host.DeliverDue(); n != 0 {
		t.Fatalf("delivered twice: %d", n)
	}
	n := k.host.Notifications()
	if len(n) != 1 || n[0].UserID != anaID || n[0].Title != "Vacina de Rex em 7 dias" || !strings.Contains(n[0].Body, "Antirrábica") ||
		!strings.Contains(n[0].Body, "01/03/2027") || !strings.Contains(n[0].Body, "João Gonçalves") {
		t.Fatalf("notifications: %+v", n)
	}

	// Deleting the member's data cancels what is left.
	if err := deleteUser(k.host.Context(context.Background(), sdktest.User(anaID)), k.host.Host, anaID); err != nil {
		t.Fatal(err)
	}
	if got := k.scheduled(); len(got) != 0 {
		t.Fatalf("after deleting the member's data: %v", got)
	}
}

func TestTrialLimitHoldsUnderConcurrency(t *testing.T) {
	k := newKit(t)
	for i := 0; i < 9; i++ {
		body := rex()
		body["name"] = fmt.Sprintf("Paciente %d", i)
		delete(body, "weight_kg")
		k.createPatient(anaID, body)
	}
	var wg sync.WaitGroup
	statuses := make([]int, 4)
	for i := range statuses {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := rex()
			body["name"] = fmt.Sprintf("Corrida %d", i)
			statuses[i] = k.do(anaID, "POST", "/patients", body).status
		}(i)
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s == 201 {
			created++
		} else if s != 403 {
			t.Errorf("status %d", s)
		}
	}
	var list struct{ Total int }
	k.do(anaID, "GET", "/patients", nil).decode(t, &list)
	if created != 1 || list.Total != 10 {
		t.Fatalf("created %d concurrently, %d active", created, list.Total)
	}
	res := k.do(anaID, "POST", "/patients", rex())
	e := res.err(t)
	if res.status != 403 || !e.Upgrade || !strings.Contains(e.Error.Message, "limite de 10 pacientes") || !strings.Contains(e.Error.Message, "Premium") {
		t.Fatalf("11th: %d %s", res.status, res.body)
	}
	// Archiving frees a place; bringing it back needs one.
	var all struct{ Items []Patient }
	k.do(anaID, "GET", "/patients?per_page=1", nil).decode(t, &all)
	first := all.Items[0].ID
	if res := k.do(anaID, "POST", "/patients/"+first+"/archive", nil); res.status != 200 {
		t.Fatalf("archive: %d %s", res.status, res.body)
	}
	k.do(anaID, "POST", "/patients/"+first+"/archive", nil)
	k.createPatient(anaID, rex())
	if res := k.do(anaID, "POST", "/patients/"+first+"/unarchive", nil); res.status != 403 {
		t.Fatalf("unarchive over the limit: %d %s", res.status, res.body)
	}
	var archived struct{ Total int }
	k.do(anaID, "GET", "/patients?archived=1", nil).decode(t, &archived)
	if archived.Total != 1 {
		t.Fatalf("archived: %+v", archived)
	}
	// Premium: no limit; another member has their own count.
	k.subs[anaID] = "premium"
	k.createPatient(anaID, rex())
	if res := k.do(anaID, "POST", "/patients/"+first+"/unarchive", nil); res.status != 200 {
		t.Fatalf("premium unarchive: %d %s", res.status, res.body)
	}
	k.createPatient(biaID, rex())
}

func TestExportAndDeleteUser(t *testing.T) {
	k := newKit(t)
	p := k.createPatient(anaID, rex())
	k.do(anaID, "POST", "/patients/"+p.ID+"/records", map[string]any{"kind": "nota", "data": map[string]any{"text": "=cmd|' /C calc'!A0"}})
	k.createPatient(biaID, rex())
	res := k.do(anaID, "GET", "/export?format=csv", nil)
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") || !strings.Contains(string(res.body), "João Gonçalves") ||
		strings.Count(string(res.body), "\n") != 3 {
		t.Fatalf("csv: %d %s", res.status, res.body)
	}
	var js struct{ Patients []exportPatient }
	k.do(anaID, "GET", "/export?format=json", nil).decode(t, &js)
	if len(js.Patients) != 1 || len(js.Patients[0].Records) != 2 {
		t.Fatalf("json: %+v", js)
	}
	ctx := context.Background()
	files, err := exportUser(ctx, k.host.Host, anaID)
	if err != nil || len(files) != 2 || !bytes.Contains(files[0].Data, []byte("Rex")) {
		t.Fatalf("exportUser: %v %d", err, len(files))
	}
	hook := k.host.Context(ctx, sdktest.User(anaID))
	if err := deleteUser(hook, k.host.Host, anaID); err != nil {
		t.Fatal(err)
	}
	if err := deleteUser(hook, k.host.Host, anaID); err != nil {
		t.Fatal("repeat:", err)
	}
	var list struct{ Total int }
	k.do(anaID, "GET", "/patients", nil).decode(t, &list)
	var other struct{ Total int }
	k.do(biaID, "GET", "/patients", nil).decode(t, &other)
	if list.Total != 0 || other.Total != 1 {
		t.Fatalf("after delete: %d, other member %d", list.Total, other.Total)
	}
}

func TestCPFAndWhatsApp(t *testing.T) {
	for cpf, ok := range map[string]bool{"529.982.247-25": true, "52998224725": true, "529.982.247-26": false, "000.000.000-00": false, "5299822472a": false, "": false} {
		if ValidCPF(cpf) != ok {
			t.Errorf("ValidCPF(%q) != %v", cpf, ok)
		}
	}
	for phone, want := range map[string]string{"(11) 98765-4321": "https://wa.me/5511987654321", "+55 21 3456-7890": "https://wa.me/552134567890", "123": ""} {
		if got := WhatsAppURL(phone); got != want {
			t.Errorf("WhatsAppURL(%q) = %q", phone, got)
		}
	}
}
