package profiles_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/storage"
)

type fixture struct {
	ctx   context.Context
	pool  *pgxpool.Pool
	store *storage.Disk
	dir   string
	svc   *profiles.Service
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	pool := pgtest.New(t)
	dir := t.TempDir()
	store, err := storage.NewDisk(dir, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return fixture{ctx: context.Background(), pool: pool, store: store, dir: dir, svc: profiles.NewService(pool, store, log)}
}

// newUser inserts an account with the sign-up metadata core/auth stores.
func (f fixture) newUser(t testing.TB, email string, metadata map[string]any) string {
	t.Helper()
	if metadata == nil {
		metadata = map[string]any{}
	}
	var id string
	err := f.pool.QueryRow(f.ctx, `INSERT INTO users (email, metadata) VALUES ($1, $2) RETURNING id::text`, email, metadata).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func wantCode(t *testing.T, err error, code, message string) *core.Error {
	t.Helper()
	var e *core.Error
	if !errors.As(err, &e) || e.Code != code || e.Message != message {
		t.Fatalf("got %v, want %s %q", err, code, message)
	}
	return e
}

func TestAutoCreateFallbacks(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name                  string
		metadata              map[string]any
		first, last, avatarTo string
	}{
		{"email sign-up", map[string]any{"first_name": "Ana", "last_name": "Souza"}, "Ana", "Souza", ""},
		{"google", map[string]any{"given_name": "Bruno", "family_name": "Lima", "picture": "https://lh3.googleusercontent.com/a/x"}, "Bruno", "Lima", "https://lh3.googleusercontent.com/a/x"},
		{"first_name wins over given_name", map[string]any{"first_name": " Carla ", "given_name": "Carlinha", "last_name": "", "family_name": "Reis"}, "Carla", "Reis", ""},
		{"avatar_url wins over picture", map[string]any{"avatar_url": "https://cdn.example/a.png", "picture": "https://cdn.example/b.png"}, "Usuário", "", "https://cdn.example/a.png"},
		{"non-http picture ignored", map[string]any{"given_name": "Davi", "picture": "javascript:alert(1)"}, "Davi", "", ""},
		{"nothing at all", nil, "Usuário", "", ""},
		{"blank names", map[string]any{"first_name": "   ", "given_name": ""}, "Usuário", "", ""},
		{"over-long name cut", map[string]any{"given_name": strings.Repeat("n", 300)}, strings.Repeat("n", 100), "", ""},
		// A provider's names are as untrusted as typed ones.
		{"invisible provider name", map[string]any{"given_name": "\u200b\u202e", "family_name": "\u202eLima\u202c"}, "Usuário", "Lima", ""},
		{"name without letters skipped", map[string]any{"first_name": "123", "given_name": "Eva"}, "Eva", "", ""},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			email := strings.ReplaceAll(tc.name, " ", "-") + "@example.com"
			id := f.newUser(t, email, tc.metadata)
			_ = i
			p, err := f.svc.Get(f.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if p.ID != id || p.Email != email || p.FirstName != tc.first || p.LastName != tc.last || p.AvatarURL != tc.avatarTo {
				t.Errorf("got id=%s email=%s first=%q last=%q avatar=%q; want %q %q %q", p.ID, p.Email, p.FirstName, p.LastName, p.AvatarURL, tc.first, tc.last, tc.avatarTo)
			}
			if p.TimeZone != "America/Sao_Paulo" || p.Specialties == nil || len(p.Specialties) != 0 || p.Verified || p.ConnectionsCount != 0 {
				t.Errorf("defaults: %+v", p)
			}
		})
	}
}

func TestAutoCreateIsRaceSafe(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "race@example.com", map[string]any{"first_name": "Rita"})
	var wg sync.WaitGroup
	results := make([]profiles.Profile, 16)
	errs := make([]error, 16)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = f.svc.Get(f.ctx, id)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("concurrent first access %d: %v", i, err)
		}
		if !results[i].CreatedAt.Equal(results[0].CreatedAt) || results[i].FirstName != "Rita" {
			t.Errorf("access %d saw a different profile: %+v", i, results[i])
		}
	}
	var n int
	if err := f.pool.QueryRow(f.ctx, `SELECT count(*) FROM profiles WHERE user_id = $1`, id).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d profile rows (err %v), want 1", n, err)
	}
}

func TestUnknownUser(t *testing.T) {
	f := newFixture(t)
	for _, id := range []string{"0b6b4a3e-6f0a-4d7e-9a55-2f7d1f1f0000", "not-a-uuid", ""} {
		_, err := f.svc.Get(f.ctx, id)
		wantCode(t, err, core.ENOTFOUND, "Usuário não encontrado")
		_, err = f.svc.Public(f.ctx, id)
		wantCode(t, err, core.ENOTFOUND, "Usuário não encontrado")
	}
}

func completeUpdate() profiles.Update {
	return profiles.Update{
		FirstName: " Ana ", LastName: "Souza", Title: "Médica-veterinária",
		Biography: "Clínica de pequenos animais há 10 anos.", Specialties: []string{"clinica_geral", "cirurgia"},
		HasCRMV: true, CRMV: "crmv sp 12345", Phone: "(11) 98765-4321", HasWhatsApp: true, CPF: "529.982.247-25",
	}
}

func TestUpdateSavesNormalisedValues(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "ana@example.com", nil)
	before, err := f.svc.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.svc.Update(f.ctx, id, completeUpdate())
	if err != nil {
		t.Fatal(err)
	}
	if p.FirstName != "Ana" || p.CRMV != "CRMV-SP 12345" || p.Phone != "11987654321" || p.CPF != "52998224725" ||
		strings.Join(p.Specialties, ",") != "clinica_geral,cirurgia" || !p.HasWhatsApp || p.TimeZone != "America/Sao_Paulo" {
		t.Errorf("saved %+v", p)
	}
	if !p.UpdatedAt.After(before.UpdatedAt) || !p.CreatedAt.Equal(before.CreatedAt) {
		t.Errorf("timestamps: before %v/%v after %v/%v", before.CreatedAt, before.UpdatedAt, p.CreatedAt, p.UpdatedAt)
	}
	again, err := f.svc.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if again.CRMV != p.CRMV || again.Biography != p.Biography {
		t.Errorf("not persisted: %+v", again)
	}

	// time_zone omitted keeps the zone; given, changes it.
	u := completeUpdate()
	tz := "America/Manaus"
	u.TimeZone = &tz
	if p, err = f.svc.Update(f.ctx, id, u); err != nil || p.TimeZone != "America/Manaus" {
		t.Fatalf("set time zone: %v %q", err, p.TimeZone)
	}
	if p, err = f.svc.Update(f.ctx, id, completeUpdate()); err != nil || p.TimeZone != "America/Manaus" {
		t.Fatalf("omitted time zone changed it: %v %q", err, p.TimeZone)
	}
}

func TestInvalidUpdateChangesNothing(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "bia@example.com", nil)
	saved, err := f.svc.Update(f.ctx, id, completeUpdate())
	if err != nil {
		t.Fatal(err)
	}
	u := completeUpdate()
	u.Title, u.CPF, u.Specialties = "Dr", "111.111.111-11", []string{"astrologia"}
	u.FirstName = "Outro"
	_, err = f.svc.Update(f.ctx, id, u)
	e := wantCode(t, err, core.EINVALID, "Erro ao atualizar perfil")
	for _, field := range []string{"title", "cpf", "specialties"} {
		if e.Fields[field] == "" {
			t.Errorf("no reason for %s in %v", field, e.Fields)
		}
	}
	now, err := f.svc.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(saved)
	b, _ := json.Marshal(now)
	if string(a) != string(b) {
		t.Errorf("a refused update changed the profile:\n%s\n%s", a, b)
	}
}

// The database refuses what the validator refuses, for writers that bypass
// the service.
func TestDatabaseConstraints(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "db@example.com", nil)
	if _, err := f.svc.Get(f.ctx, id); err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{
		`specialties = ARRAY['astrologia']`,
		`has_crmv = true, crmv = ''`,
		`crmv = 'crmv sp 1'`,
		`phone = '(11) 98765-4321'`,
		`cpf = '529.982.247-25'`,
		`first_name = '  '`,
		`title = repeat('t', 121)`,
		`biography = repeat('b', 2001)`,
		`time_zone = ''`,
		`connections_count = -1`,
	} {
		if _, err := f.pool.Exec(f.ctx, `UPDATE profiles SET `+set+` WHERE user_id = $1`, id); err == nil {
			t.Errorf("database accepted %s", set)
		}
	}
	if _, err := f.pool.Exec(f.ctx, `DELETE FROM users WHERE id = $1`, id); err != nil {
		t.Fatalf("deleting the account: %v", err)
	}
	var n int
	if err := f.pool.QueryRow(f.ctx, `SELECT count(*) FROM profiles WHERE user_id = $1`, id).Scan(&n); err != nil || n != 0 {
		t.Errorf("profile survived its account: %d %v", n, err)
	}
}

func TestCompleteness(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "comp@example.com", map[string]any{"first_name": "Caio"})
	c, err := f.svc.Completeness(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c.Complete || strings.Join(c.Missing, ",") != "last_name,title,biography,specialties" {
		t.Errorf("new profile: %+v", c)
	}
	if _, err := f.svc.Update(f.ctx, id, completeUpdate()); err != nil {
		t.Fatal(err)
	}
	c, err = f.svc.Completeness(f.ctx, id)
	if err != nil || !c.Complete || len(c.Missing) != 0 {
		t.Errorf("complete profile: %+v %v", c, err)
	}
	u := completeUpdate()
	u.Specialties = nil
	if _, err := f.svc.Update(f.ctx, id, u); err != nil {
		t.Fatal(err)
	}
	c, _ = f.svc.Completeness(f.ctx, id)
	if c.Complete || strings.Join(c.Missing, ",") != "specialties" {
		t.Errorf("without specialties: %+v", c)
	}
}

// TestCompletenessRule checks the completeness rule field by field, including the CRMV rule
// that the update validator makes unreachable through the service.
func TestCompletenessRule(t *testing.T) {
	full := profiles.Profile{FirstName: "Ana", LastName: "Souza", Title: "Vet", Biography: "0123456789", Specialties: []string{"cirurgia"}}
	cases := []struct {
		change  func(*profiles.Profile)
		missing string
	}{
		{func(p *profiles.Profile) {}, ""},
		{func(p *profiles.Profile) { p.FirstName = "  " }, "first_name"},
		{func(p *profiles.Profile) { p.LastName = "" }, "last_name"},
		{func(p *profiles.Profile) { p.Title = " Ve " }, "title"},
		{func(p *profiles.Profile) { p.Biography = " 012345678 " }, "biography"},
		{func(p *profiles.Profile) { p.Specialties = nil }, "specialties"},
		{func(p *profiles.Profile) { p.HasCRMV = true }, "crmv"},
		{func(p *profiles.Profile) { p.HasCRMV, p.CRMV = true, "CRMV-SP 1" }, ""},
		{func(p *profiles.Profile) { p.CRMV = "" }, ""},
	}
	for i, tc := range cases {
		p := full
		tc.change(&p)
		c := p.Completeness()
		if got := strings.Join(c.Missing, ","); got != tc.missing || c.Complete != (tc.missing == "") {
			t.Errorf("case %d: %+v, want missing %q", i, c, tc.missing)
		}
	}
}

func TestPublicProfileHidesPrivateFields(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "pub@example.com", nil)
	if _, err := f.svc.Update(f.ctx, id, completeUpdate()); err != nil {
		t.Fatal(err)
	}
	p, err := f.svc.Public(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	var fields map[string]any
	_ = json.Unmarshal(b, &fields)
	for _, private := range []string{"email", "phone", "cpf", "time_zone", "has_whatsapp", "updated_at"} {
		if _, ok := fields[private]; ok {
			t.Errorf("public profile has %s: %s", private, b)
		}
	}
	for _, secret := range []string{"pub@example.com", "11987654321", "52998224725"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("public profile leaks %s: %s", secret, b)
		}
	}
	if fields["first_name"] != "Ana" || fields["crmv"] != "CRMV-SP 12345" || fields["title"] != "Médica-veterinária" {
		t.Errorf("public fields missing: %s", b)
	}
}

// Reading a public profile never writes: a member who has not opened their
// profile yet is shown from the sign-up metadata, and no row appears.
func TestPublicProfileReadsOnly(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "fresh@example.com", map[string]any{
		"given_name": "Lia", "family_name": "Prado", "picture": "https://lh3.googleusercontent.com/a/lia"})
	p, err := f.svc.Public(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != id || p.FirstName != "Lia" || p.LastName != "Prado" || p.AvatarURL != "https://lh3.googleusercontent.com/a/lia" ||
		p.Specialties == nil || len(p.Specialties) != 0 || p.CreatedAt.IsZero() {
		t.Errorf("public view of a profile not yet created: %+v", p)
	}
	var n int
	if err := f.pool.QueryRow(f.ctx, `SELECT count(*) FROM profiles`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d profile rows after a public read (err %v), want 0", n, err)
	}
	// Once created, the view matches what the owner sees.
	own, err := f.svc.Get(f.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p2, _ := f.svc.Public(f.ctx, id); p2.FirstName != own.FirstName || p2.AvatarURL != own.AvatarURL || !p2.CreatedAt.Equal(own.CreatedAt) {
		t.Errorf("public %+v, own %+v", p2, own)
	}
}

// PublicMany answers a page's people in one read, each exactly as Public
// shows them (created profile or sign-up metadata), and skips ids it cannot
// find instead of failing the page.
func TestPublicManyMatchesPublicAndSkipsUnknownIDs(t *testing.T) {
	f := newFixture(t)
	withProfile := f.newUser(t, "many1@example.com", nil)
	if _, err := f.svc.Update(f.ctx, withProfile, completeUpdate()); err != nil {
		t.Fatal(err)
	}
	fromMetadata := f.newUser(t, "many2@example.com", map[string]any{"given_name": "Téo", "family_name": "Lins"})
	got, err := f.svc.PublicMany(f.ctx, []string{withProfile, fromMetadata, withProfile,
		"00000000-0000-4000-8000-000000000000", "not-a-uuid"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d profiles, want 2: %+v", len(got), got)
	}
	for _, id := range []string{withProfile, fromMetadata} {
		one, err := f.svc.Public(f.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if m := got[id]; m.FirstName != one.FirstName || m.LastName != one.LastName || m.Title != one.Title ||
			m.AvatarURL != one.AvatarURL || !m.CreatedAt.Equal(one.CreatedAt) {
			t.Errorf("PublicMany %+v, Public %+v", m, one)
		}
	}
	if got[fromMetadata].FirstName != "Téo" || got[withProfile].FirstName != "Ana" {
		t.Errorf("names: %q, %q", got[fromMetadata].FirstName, got[withProfile].FirstName)
	}
	if empty, err := f.svc.PublicMany(f.ctx, nil); err != nil || len(empty) != 0 {
		t.Errorf("no ids: %v, %v", empty, err)
	}
}

// Saving any valid subset works: names alone save, completeness then lists
// what is still missing, and control characters are a field reason (422),
// not a database error.
func TestUpdateSavesAValidSubset(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "subset@example.com", nil)
	p, err := f.svc.Update(f.ctx, id, profiles.Update{FirstName: "Ana", LastName: "Souza"})
	if err != nil {
		t.Fatalf("names only: %v", err)
	}
	if p.FirstName != "Ana" || p.Title != "" || p.Biography != "" {
		t.Errorf("saved %+v", p)
	}
	c, err := f.svc.Completeness(f.ctx, id)
	if err != nil || c.Complete || strings.Join(c.Missing, ",") != "title,biography,specialties" {
		t.Errorf("completeness %+v (%v)", c, err)
	}
	// A filled title alone, no biography.
	if _, err := f.svc.Update(f.ctx, id, profiles.Update{FirstName: "Ana", LastName: "Souza", Title: "Cirurgiã"}); err != nil {
		t.Fatalf("title without biography: %v", err)
	}
	if c, _ := f.svc.Completeness(f.ctx, id); strings.Join(c.Missing, ",") != "biography,specialties" {
		t.Errorf("completeness %+v", c)
	}

	for field, u := range map[string]profiles.Update{
		"first_name": {FirstName: "A\x00na", LastName: "Souza"},
		"biography":  {FirstName: "Ana", LastName: "Souza", Biography: "Biografia com \x00 no meio."},
	} {
		_, err := f.svc.Update(f.ctx, id, u)
		e := wantCode(t, err, core.EINVALID, "Erro ao atualizar perfil")
		if e.Fields[field] != profiles.MsgControlChars {
			t.Errorf("%s: fields %v", field, e.Fields)
		}
	}
	if p, _ := f.svc.Get(f.ctx, id); p.FirstName != "Ana" || p.Title != "Cirurgiã" {
		t.Errorf("a refused update changed the profile: %+v", p)
	}
}
