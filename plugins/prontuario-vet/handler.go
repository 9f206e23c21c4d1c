package main

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/vetcalc"
)

type api struct {
	host *sdk.Host
	s    *store
	svc  services
	now  func() time.Time
}

// Handler serves the medical record API for the signed-in vet only.
func Handler(host *sdk.Host) http.Handler { return newAPI(host, hostServices(host), time.Now).routes() }

func newAPI(host *sdk.Host, svc services, now func() time.Time) *api {
	return &api{host: host, s: &store{host: host}, svc: svc, now: now}
}

func (a *api) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /meta", a.meta)
	mux.HandleFunc("GET /patients", a.listPatients)
	mux.HandleFunc("POST /patients", a.createPatient)
	mux.HandleFunc("GET /patients/{id}", a.getPatient)
	mux.HandleFunc("PUT /patients/{id}", a.updatePatient)
	mux.HandleFunc("POST /patients/{id}/archive", a.archivePatient)
	mux.HandleFunc("POST /patients/{id}/unarchive", a.unarchivePatient)
	mux.HandleFunc("GET /patients/{id}/history", a.patientHistory)
	mux.HandleFunc("GET /patients/{id}/records", a.listRecords)
	mux.HandleFunc("POST /patients/{id}/records", a.createRecord)
	mux.HandleFunc("GET /patients/{id}/weights", a.patientWeights)
	mux.HandleFunc("GET /patients/{id}/pdf", a.patientPDF)
	mux.HandleFunc("GET /records/{id}", a.getRecord)
	mux.HandleFunc("PUT /records/{id}", a.updateRecord)
	mux.HandleFunc("GET /records/{id}/revisions", a.recordHistory)
	mux.HandleFunc("GET /records/{id}/pdf", a.prescriptionPDF)
	mux.HandleFunc("GET /vaccines/upcoming", a.upcoming)
	mux.HandleFunc("GET /export", a.export)
	return mux
}

func user(r *http.Request) string { return sdk.UserFrom(r.Context()).ID }

func (a *api) fail(w http.ResponseWriter, err error) {
	a.host.Logger().Error("prontuario storage failed", "err", err)
	sdk.WriteHostError(w, err, "Não foi possível salvar ou carregar o prontuário. Tente novamente.")
}

func patientNotFound(w http.ResponseWriter) {
	sdk.WriteError(w, http.StatusNotFound, "Paciente não encontrado.", nil)
}

func recordNotFound(w http.ResponseWriter) {
	sdk.WriteError(w, http.StatusNotFound, "Registro não encontrado.", nil)
}

// paging reads page (from 1) and per_page (1–100, default 20).
func paging(w http.ResponseWriter, r *http.Request) (page, perPage int, ok bool) {
	page, perPage = 1, 20
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Página inválida.", map[string]string{"page": "Página inválida."})
			return 0, 0, false
		}
		page = n
	}
	if v := r.URL.Query().Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Itens por página inválido (1 a 100).", map[string]string{"per_page": "Use de 1 a 100."})
			return 0, 0, false
		}
		perPage = n
	}
	return page, perPage, true
}

type speciesMeta struct {
	Value  string           `json:"value"`
	Label  string           `json:"label"`
	MinKg  float64          `json:"min_kg"`
	MaxKg  float64          `json:"max_kg"`
	Vitals map[string]Range `json:"vitals"`
}

// meta is what the forms need: species with their weight and vital ranges,
// routes, and the member's active count against the limit.
func (a *api) meta(w http.ResponseWriter, r *http.Request) {
	sp := []speciesMeta{}
	for _, s := range vetcalc.Species {
		sp = append(sp, speciesMeta{Value: s.Value, Label: s.Label, MinKg: s.MinKg, MaxKg: s.MaxKg, Vitals: VitalRanges[s.Value]})
	}
	used, err := a.s.activeCount(r.Context(), user(r))
	if err != nil {
		a.fail(w, err)
		return
	}
	lim, err := a.svc.checkLimit(r.Context(), limitName, used)
	if err != nil {
		a.fail(w, err)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{
		"species": sp, "routes": routes, "kinds": kindLabels,
		"active_patients": used, "limit": lim.Limit, "can_add": lim.Allowed, "limit_reason": lim.Reason,
	})
}

func (a *api) listPatients(w http.ResponseWriter, r *http.Request) {
	page, perPage, ok := paging(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	f := patientFilter{Query: q.Get("q"), Species: q.Get("species"), Archived: q.Get("archived") == "1", Page: page, PerPage: perPage}
	if len([]rune(f.Query)) > 100 || sdk.HasControlCharacter(f.Query) {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Busca inválida.", map[string]string{"q": "Use até 100 caracteres."})
		return
	}
	if _, known := vetcalc.Lookup(f.Species); f.Species != "" && !known {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Espécie inválida.", map[string]string{"species": "Espécie inválida."})
		return
	}
	list, total, err := a.s.patients(r.Context(), user(r), f)
	if err != nil {
		a.fail(w, err)
		return
	}
	for i := range list {
		list[i].decorate()
	}
	a.syncAllOnce(r.Context(), user(r))
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": list, "total": total, "page": page, "per_page": perPage})
}

// limitRefusal answers 403 with the host's pt-BR reason and the Premium
// invitation flag the web app shows.
func limitRefusal(w http.ResponseWriter, lim limitDecision) {
	sdk.WriteLimit(w, sdk.Limit{Name: limitName, Allowed: false, Limit: lim.Limit, Used: lim.Used, Reason: lim.Reason})
}

// withinLimit runs write with the member's active count once the host
// allowed one more; write answers errCounterMoved when another request got
// there first, and the check runs again with the new count.
func (a *api) withinLimit(ctx context.Context, w http.ResponseWriter, write func(used int) error) bool {
	for attempt := 0; attempt < 20; attempt++ {
		used, err := a.s.activeCount(ctx, sdk.UserFrom(ctx).ID)
		if err != nil {
			a.fail(w, err)
			return false
		}
		lim, err := a.svc.checkLimit(ctx, limitName, used)
		if err != nil {
			a.fail(w, err)
			return false
		}
		if !lim.Allowed {
			limitRefusal(w, lim)
			return false
		}
		err = write(used)
		if errors.Is(err, errCounterMoved) {
			continue
		}
		if err != nil {
			a.fail(w, err)
			return false
		}
		return true
	}
	sdk.WriteError(w, http.StatusConflict, "Muitas alterações ao mesmo tempo. Tente novamente.", nil)
	return false
}

func (a *api) checkPhoto(ctx context.Context, w http.ResponseWriter, id string) bool {
	if id == "" {
		return true
	}
	f, err := a.svc.file(ctx, id)
	if errors.Is(err, errFileNotFound) || (err == nil && f.Kind == "pdf") {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Foto inválida.", map[string]string{"photo_file_id": "Envie a foto novamente (JPEG, PNG ou WebP)."})
		return false
	}
	if err != nil {
		a.fail(w, err)
		return false
	}
	return true
}

func (a *api) createPatient(w http.ResponseWriter, r *http.Request) {
	var in patientInput
	if !sdk.DecodeJSON(w, r, &in) || in.validate(a.now(), true).Respond(w) {
		return
	}
	ctx := r.Context()
	if !a.checkPhoto(ctx, w, in.PhotoFileID) {
		return
	}
	var p Patient
	if !a.withinLimit(ctx, w, func(used int) (err error) {
		p, err = a.s.createPatient(ctx, user(r), used, in)
		return err
	}) {
		return
	}
	if in.WeightKg != nil {
		kg := *in.WeightKg
		rec := recordInput{Kind: KindWeight, Date: in.WeightDate, Data: RecordData{WeightKg: &kg}}
		if _, _, err := a.s.createRecord(ctx, user(r), p.ID, rec); err != nil {
			a.fail(w, err)
			return
		}
		p.LatestKg = &kg
	}
	p.decorate()
	sdk.WriteJSON(w, http.StatusCreated, p)
}

func (a *api) loadPatient(w http.ResponseWriter, r *http.Request) (Patient, bool) {
	p, found, err := a.s.patient(r.Context(), user(r), r.PathValue("id"))
	if err != nil {
		a.fail(w, err)
		return Patient{}, false
	}
	if !found {
		patientNotFound(w)
		return Patient{}, false
	}
	return p, true
}

func (a *api) getPatient(w http.ResponseWriter, r *http.Request) {
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	ws, err := a.s.weights(r.Context(), user(r), p.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	if len(ws) > 0 {
		p.LatestKg = &ws[len(ws)-1].Kg
	}
	p.decorate()
	sdk.WriteJSON(w, http.StatusOK, p)
}

// editorName is who an edit is recorded under: the vet's name, or their id
// when the profile cannot be read.
func (a *api) editorName(ctx context.Context) string {
	if v, err := a.svc.vet(ctx); err == nil && v.Name != "" {
		return v.Name
	}
	return sdk.UserFrom(ctx).ID
}

func (a *api) updatePatient(w http.ResponseWriter, r *http.Request) {
	var in patientInput
	if !sdk.DecodeJSON(w, r, &in) || in.validate(a.now(), false).Respond(w) {
		return
	}
	ctx, id := r.Context(), r.PathValue("id")
	if _, found, err := a.s.patient(ctx, user(r), id); err != nil || !found {
		if err != nil {
			a.fail(w, err)
		} else {
			patientNotFound(w)
		}
		return
	}
	if !a.checkPhoto(ctx, w, in.PhotoFileID) {
		return
	}
	p, updated, err := a.s.updatePatient(ctx, user(r), id, a.editorName(ctx), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if !updated {
		sdk.WriteError(w, http.StatusConflict, "Este paciente foi alterado em outra janela. Recarregue a página para ver a versão mais recente.", nil)
		return
	}
	p.decorate()
	// The reminders name the patient and the tutor.
	a.syncReminders(ctx, user(r), id)
	sdk.WriteJSON(w, http.StatusOK, p)
}

func (a *api) archivePatient(w http.ResponseWriter, r *http.Request) {
	if _, ok := a.loadPatient(w, r); !ok {
		return
	}
	if err := a.s.archive(r.Context(), user(r), r.PathValue("id")); err != nil {
		a.fail(w, err)
		return
	}
	a.syncReminders(r.Context(), user(r), r.PathValue("id"))
	a.getPatient(w, r)
}

func (a *api) unarchivePatient(w http.ResponseWriter, r *http.Request) {
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	if p.Archived && !a.withinLimit(r.Context(), w, func(used int) error {
		done, err := a.s.unarchive(r.Context(), user(r), p.ID, used)
		if err == nil && !done {
			// Either the count moved or the patient was restored meanwhile.
			if q, found, err := a.s.patient(r.Context(), user(r), p.ID); err == nil && found && q.Archived {
				return errCounterMoved
			}
		}
		return err
	}) {
		return
	}
	a.syncReminders(r.Context(), user(r), p.ID)
	a.getPatient(w, r)
}

func (a *api) patientHistory(w http.ResponseWriter, r *http.Request) {
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	revs, err := a.s.patientRevisions(r.Context(), user(r), p.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": revs})
}

func (a *api) listRecords(w http.ResponseWriter, r *http.Request) {
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	page, perPage, ok := paging(w, r)
	if !ok {
		return
	}
	kind := r.URL.Query().Get("kind")
	if _, known := kindLabels[kind]; kind != "" && !known {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "Tipo de registro inválido.", map[string]string{"kind": "Tipo de registro inválido."})
		return
	}
	list, total, err := a.s.records(r.Context(), user(r), p.ID, kind, page, perPage)
	if err != nil {
		a.fail(w, err)
		return
	}
	for i := range list {
		list[i].decorate(p.Species)
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": list, "total": total, "page": page, "per_page": perPage})
}

// checkAttachments confirms each exam attachment is one of the member's
// own tool files and records its name and kind.
func (a *api) checkAttachments(ctx context.Context, w http.ResponseWriter, in *recordInput) bool {
	for i, att := range in.Data.Attachments {
		f, err := a.svc.file(ctx, att.ID)
		if errors.Is(err, errFileNotFound) {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Anexo não encontrado.", map[string]string{"attachments": "Envie o arquivo novamente."})
			return false
		}
		if err != nil {
			a.fail(w, err)
			return false
		}
		in.Data.Attachments[i] = Attachment{ID: att.ID, Name: f.Name, Kind: f.Kind}
	}
	return true
}

func (a *api) createRecord(w http.ResponseWriter, r *http.Request) {
	var in recordInput
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	if in.validate(p.Species, a.now()).Respond(w) || !a.checkAttachments(r.Context(), w, &in) {
		return
	}
	rec, created, err := a.s.createRecord(r.Context(), user(r), p.ID, in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if !created {
		patientNotFound(w)
		return
	}
	rec.decorate(p.Species)
	if rec.Kind == KindVaccination {
		a.syncReminders(r.Context(), user(r), p.ID)
	}
	sdk.WriteJSON(w, http.StatusCreated, rec)
}

func (a *api) loadRecord(w http.ResponseWriter, r *http.Request) (Record, Patient, bool) {
	rec, found, err := a.s.record(r.Context(), user(r), r.PathValue("id"))
	if err != nil {
		a.fail(w, err)
		return Record{}, Patient{}, false
	}
	if !found {
		recordNotFound(w)
		return Record{}, Patient{}, false
	}
	p, found, err := a.s.patient(r.Context(), user(r), rec.PatientID)
	if err != nil || !found {
		if err != nil {
			a.fail(w, err)
		} else {
			recordNotFound(w)
		}
		return Record{}, Patient{}, false
	}
	rec.decorate(p.Species)
	return rec, p, true
}

func (a *api) getRecord(w http.ResponseWriter, r *http.Request) {
	if rec, _, ok := a.loadRecord(w, r); ok {
		sdk.WriteJSON(w, http.StatusOK, rec)
	}
}

func (a *api) updateRecord(w http.ResponseWriter, r *http.Request) {
	var in recordInput
	if !sdk.DecodeJSON(w, r, &in) {
		return
	}
	rec, p, ok := a.loadRecord(w, r)
	if !ok {
		return
	}
	if in.Kind == "" {
		in.Kind = rec.Kind
	}
	if in.Kind != rec.Kind {
		sdk.WriteError(w, http.StatusUnprocessableEntity, "O tipo de um registro não pode ser mudado.", map[string]string{"kind": "Crie um novo registro."})
		return
	}
	if in.validate(p.Species, a.now()).Respond(w) || !a.checkAttachments(r.Context(), w, &in) {
		return
	}
	updated, err := a.s.updateRecord(r.Context(), user(r), rec.ID, a.editorName(r.Context()), in)
	if err != nil {
		a.fail(w, err)
		return
	}
	if !updated {
		sdk.WriteError(w, http.StatusConflict, "Este registro foi alterado em outra janela. Recarregue a página para ver a versão mais recente.", nil)
		return
	}
	if rec.Kind == KindVaccination {
		a.syncReminders(r.Context(), user(r), p.ID)
	}
	a.getRecord(w, r)
}

func (a *api) recordHistory(w http.ResponseWriter, r *http.Request) {
	rec, _, ok := a.loadRecord(w, r)
	if !ok {
		return
	}
	revs, err := a.s.recordRevisions(r.Context(), user(r), rec.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": revs})
}

func (a *api) patientWeights(w http.ResponseWriter, r *http.Request) {
	p, ok := a.loadPatient(w, r)
	if !ok {
		return
	}
	ws, err := a.s.weights(r.Context(), user(r), p.ID)
	if err != nil {
		a.fail(w, err)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": ws})
}

func (a *api) upcoming(w http.ResponseWriter, r *http.Request) {
	days := 60
	if v := r.URL.Query().Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 366 {
			sdk.WriteError(w, http.StatusUnprocessableEntity, "Período inválido (1 a 366 dias).", map[string]string{"days": "Use de 1 a 366 dias."})
			return
		}
		days = n
	}
	today := a.now()
	list, err := a.s.upcomingVaccines(r.Context(), user(r), today.AddDate(0, 0, -30).Format("2006-01-02"), today.AddDate(0, 0, days).Format("2006-01-02"), 200)
	if err != nil {
		a.fail(w, err)
		return
	}
	sdk.WriteJSON(w, http.StatusOK, map[string]any{"items": list, "today": today.Format("2006-01-02")})
}

// brDate writes YYYY-MM-DD as DD/MM/YYYY.
func brDate(s string) string {
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return s
	}
	return parts[2] + "/" + parts[1] + "/" + parts[0]
}
