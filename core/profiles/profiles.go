// Package profiles is a member's profile: created on first
// access from the sign-up metadata, read and changed only by its owner,
// shown to everyone through a public view without private fields, with an
// avatar stored through core/storage.
package profiles

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/ratelimit"
	"github.com/vetclube/vetclube/core/storage"
	"github.com/vetclube/vetclube/core/text"
)

// Profile is the owner's full view (GET /api/profile).
type Profile struct {
	ID                string    `json:"id"`
	FirstName         string    `json:"first_name"`
	LastName          string    `json:"last_name"`
	Email             string    `json:"email"`
	AvatarURL         string    `json:"avatar_url"`
	Verified          bool      `json:"verified"`
	Specialties       []string  `json:"specialties"`
	ConnectionsCount  int       `json:"connections_count"`
	HasCRMV           bool      `json:"has_crmv"`
	Title             string    `json:"title"`
	Biography         string    `json:"biography"`
	CRMV              string    `json:"crmv"`
	Phone             string    `json:"phone"`
	HasWhatsApp       bool      `json:"has_whatsapp"`
	IsNotVeterinarian bool      `json:"is_not_veterinarian"`
	CPF               string    `json:"cpf"`
	TimeZone          string    `json:"time_zone"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

// PublicProfile is what anyone may see (GET /api/profiles/{id}): never the
// email, phone, CPF or time zone.
type PublicProfile struct {
	ID                string    `json:"id"`
	FirstName         string    `json:"first_name"`
	LastName          string    `json:"last_name"`
	AvatarURL         string    `json:"avatar_url"`
	Verified          bool      `json:"verified"`
	Specialties       []string  `json:"specialties"`
	ConnectionsCount  int       `json:"connections_count"`
	HasCRMV           bool      `json:"has_crmv"`
	Title             string    `json:"title"`
	Biography         string    `json:"biography"`
	CRMV              string    `json:"crmv"`
	IsNotVeterinarian bool      `json:"is_not_veterinarian"`
	CreatedAt         time.Time `json:"created_at"`
}

// Completeness answers whether the profile-completeness banner may go away.
type Completeness struct {
	Complete bool     `json:"complete"`
	Missing  []string `json:"missing"`
}

// Completeness is the rule: first and last name non-blank, title ≥ 3 and
// biography ≥ 10 characters, at least one specialty, and a CRMV when the
// member says they have one. Missing lists the field names, in form order.
func (p Profile) Completeness() Completeness {
	missing := []string{}
	if length(p.FirstName) == 0 {
		missing = append(missing, "first_name")
	}
	if length(p.LastName) == 0 {
		missing = append(missing, "last_name")
	}
	if length(p.Title) < MinTitle {
		missing = append(missing, "title")
	}
	if length(p.Biography) < MinBiography {
		missing = append(missing, "biography")
	}
	if len(p.Specialties) == 0 {
		missing = append(missing, "specialties")
	}
	if p.HasCRMV && strings.TrimSpace(p.CRMV) == "" {
		missing = append(missing, "crmv")
	}
	return Completeness{Complete: len(missing) == 0, Missing: missing}
}

// Service reads and writes profiles.
type Service struct {
	pool  *pgxpool.Pool
	store storage.Store
	log   *slog.Logger
	// images vets and decodes avatars within the process-wide image
	// limits and decoding slots.
	images *imaging.Decoder
	// limiter counts public profile reads per member (per address for
	// visitors), so nobody walks the whole member directory by id.
	limiter     *ratelimit.Limiter
	PublicReads ratelimit.Rule
}

// DefaultPublicReads is how many public profiles one member, or one
// visitor's address, may read: a person browsing colleagues stays far below
// it, a scraper does not.
var DefaultPublicReads = ratelimit.Rule{Max: 120, Window: time.Minute}

// MsgTooManyProfileReads refuses an address past DefaultPublicReads.
const MsgTooManyProfileReads = "Muitas consultas de perfis em pouco tempo. Aguarde um minuto e tente novamente."

// NewService returns a Service storing avatars in store.
func NewService(pool *pgxpool.Pool, store storage.Store, log *slog.Logger) *Service {
	return &Service{pool: pool, store: store, log: log, images: imaging.Shared(),
		limiter: ratelimit.New(pool, nil), PublicReads: DefaultPublicReads}
}

// AllowPublicRead counts one public profile read by reader (a member id, or
// "" for a visitor, then counted by address ip) and refuses it past the
// PublicReads rule. Members are counted apart from their address, so a
// clinic's colleagues behind one address do not share a budget.
func (s *Service) AllowPublicRead(ctx context.Context, reader, ip string) error {
	key := "profile-read:ip:" + ip
	if reader != "" {
		key = "profile-read:user:" + reader
	}
	ok, err := s.limiter.Allow(ctx, key, s.PublicReads)
	if err != nil {
		return err
	}
	if !ok {
		return core.Errorf(core.ERATELIMITED, "%s", MsgTooManyProfileReads)
	}
	return nil
}

func errUserNotFound() error { return core.Errorf(core.ENOTFOUND, "Usuário não encontrado") }

// userUUID turns an id from a principal or a URL into a uuid, treating
// anything malformed as an unknown user.
func userUUID(id string) (uuid.UUID, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return uuid.Nil, errUserNotFound()
	}
	return u, nil
}

// Fallbacks for a profile not yet created, from the sign-up
// metadata in users (alias u): first_name ← first_name | given_name |
// 'Usuário', last_name ← last_name | family_name, avatar ← avatar_url |
// picture (only http(s) URLs). metadataColumns reads the raw names;
// fallbackNames applies the shared name rule to them in Go.
const (
	metadataColumns = `COALESCE(u.metadata->>'first_name', ''), COALESCE(u.metadata->>'given_name', ''),
		COALESCE(u.metadata->>'last_name', ''), COALESCE(u.metadata->>'family_name', '')`
	fallbackAvatar = `COALESCE((SELECT url FROM (VALUES (1, btrim(u.metadata->>'avatar_url')),
		(2, btrim(u.metadata->>'picture'))) AS c(rank, url)
		WHERE url ~ '^https?://' AND char_length(url) <= 2048
		ORDER BY rank LIMIT 1), '')`
)

// fallbackNames picks the first metadata name that has a letter once
// cleaned (format characters such as bidirectional overrides removed, white
// space collapsed): a Google account's given name is as untrusted as a
// typed one. Over-long names are cut, not refused: the member can edit them
// later and must still be able to sign in.
func fallbackNames(first, given, last, family string) (string, string) {
	pick := func(def string, candidates ...string) string {
		for _, c := range candidates {
			if name, ok := text.CleanName(c); ok {
				if r := []rune(name); len(r) > MaxName {
					name = strings.TrimSpace(string(r[:MaxName]))
				}
				return name
			}
		}
		return def
	}
	return pick("Usuário", first, given), pick("", last, family)
}

// ensure creates the profile of an existing user from their sign-up metadata
// (users.metadata, written by core/auth) unless one exists. Concurrent first
// accesses are harmless: the loser's insert does nothing.
func (s *Service) ensure(ctx context.Context, id uuid.UUID) error { return ensureOn(ctx, s.pool, id) }

// ensureOn is ensure on a pool or inside a caller's transaction.
func ensureOn(ctx context.Context, q querier, id uuid.UUID) error {
	var mFirst, mGiven, mLast, mFamily, avatar string
	err := q.QueryRow(ctx, `SELECT `+metadataColumns+`, `+fallbackAvatar+` FROM users u WHERE u.id = $1`, id).
		Scan(&mFirst, &mGiven, &mLast, &mFamily, &avatar)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // the caller's read finds no profile and answers "not found"
	}
	if err != nil {
		return fmt.Errorf("read sign-up metadata: %w", err)
	}
	first, last := fallbackNames(mFirst, mGiven, mLast, mFamily)
	_, err = q.Exec(ctx, `
		INSERT INTO profiles (user_id, first_name, last_name, avatar_url)
		SELECT u.id, $2, $3, $4 FROM users u WHERE u.id = $1
		ON CONFLICT (user_id) DO NOTHING`, id, first, last, avatar)
	if err != nil {
		return fmt.Errorf("create profile: %w", err)
	}
	return nil
}

const profileColumns = `p.user_id::text, p.first_name, p.last_name, u.email, p.avatar_url, p.verified,
	p.specialties, p.connections_count, p.has_crmv, p.title, p.biography, p.crmv, p.phone,
	p.has_whatsapp, p.is_not_veterinarian, p.cpf, p.time_zone, p.created_at, p.updated_at`

func scanProfile(row pgx.Row) (Profile, error) {
	var p Profile
	err := row.Scan(&p.ID, &p.FirstName, &p.LastName, &p.Email, &p.AvatarURL, &p.Verified,
		&p.Specialties, &p.ConnectionsCount, &p.HasCRMV, &p.Title, &p.Biography, &p.CRMV, &p.Phone,
		&p.HasWhatsApp, &p.IsNotVeterinarian, &p.CPF, &p.TimeZone, &p.CreatedAt, &p.UpdatedAt)
	if p.Specialties == nil {
		p.Specialties = []string{}
	}
	return p, err
}

// Get returns the user's own profile, creating it on first access.
func (s *Service) Get(ctx context.Context, userID string) (Profile, error) {
	id, err := userUUID(userID)
	if err != nil {
		return Profile{}, err
	}
	// pgtype.UUID goes to the wire as it is; a uuid.UUID would be turned
	// into text (driver.Valuer) and parsed back on every read.
	pgID := pgtype.UUID{Bytes: id, Valid: true}
	get := func() (Profile, error) {
		return scanProfile(s.pool.QueryRow(ctx, `SELECT `+profileColumns+`
			FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = $1`, pgID))
	}
	p, err := get()
	if errors.Is(err, pgx.ErrNoRows) {
		if err := s.ensure(ctx, id); err != nil {
			return Profile{}, err
		}
		p, err = get()
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return Profile{}, errUserNotFound()
	}
	if err != nil {
		return Profile{}, fmt.Errorf("get profile: %w", err)
	}
	return p, nil
}

// Update validates and saves the user's own profile. Invalid input changes
// nothing and is answered with one pt-BR reason per field.
func (s *Service) Update(ctx context.Context, userID string, u Update) (Profile, error) {
	id, err := userUUID(userID)
	if err != nil {
		return Profile{}, err
	}
	if bad := u.Validate(); bad != nil {
		return Profile{}, core.Invalid("Erro ao atualizar perfil", bad)
	}
	if err := s.ensure(ctx, id); err != nil {
		return Profile{}, err
	}
	p, err := scanProfile(s.pool.QueryRow(ctx, `
		WITH p AS (
			UPDATE profiles SET
				first_name = $2, last_name = $3, title = $4, biography = $5, specialties = $6,
				has_crmv = $7, crmv = $8, phone = $9, has_whatsapp = $10, is_not_veterinarian = $11,
				cpf = $12, time_zone = COALESCE($13, time_zone), updated_at = now()
			WHERE user_id = $1
			RETURNING *)
		SELECT `+profileColumns+` FROM p JOIN users u ON u.id = p.user_id`,
		id, u.FirstName, u.LastName, u.Title, u.Biography, u.Specialties,
		u.HasCRMV, u.CRMV, u.Phone, u.HasWhatsApp, u.IsNotVeterinarian, u.CPF, u.TimeZone))
	if errors.Is(err, pgx.ErrNoRows) {
		return Profile{}, errUserNotFound()
	}
	if err != nil {
		return Profile{}, fmt.Errorf("update profile: %w", err)
	}
	return p, nil
}

// Completeness reports which fields the user still has to fill in.
func (s *Service) Completeness(ctx context.Context, userID string) (Completeness, error) {
	p, err := s.Get(ctx, userID)
	if err != nil {
		return Completeness{}, err
	}
	return p.Completeness(), nil
}

// publicSelect reads PublicProfile rows with scanPublic; the caller adds the
// WHERE clause on u.id.
const publicSelect = `
		SELECT u.id::text, p.first_name, p.last_name, ` + metadataColumns + `,
		       COALESCE(p.avatar_url, ` + fallbackAvatar + `),
		       COALESCE(p.verified, false), COALESCE(p.specialties, '{}'), COALESCE(p.connections_count, 0),
		       COALESCE(p.has_crmv, false), COALESCE(p.title, ''), COALESCE(p.biography, ''),
		       COALESCE(p.crmv, ''), COALESCE(p.is_not_veterinarian, false), COALESCE(p.created_at, u.created_at)
		FROM users u LEFT JOIN profiles p ON p.user_id = u.id`

func scanPublic(row pgx.Row) (PublicProfile, error) {
	p := PublicProfile{}
	var first, last *string // nil while the profile is not created yet
	var mFirst, mGiven, mLast, mFamily string
	if err := row.Scan(&p.ID, &first, &last, &mFirst, &mGiven, &mLast, &mFamily, &p.AvatarURL,
		&p.Verified, &p.Specialties, &p.ConnectionsCount, &p.HasCRMV, &p.Title, &p.Biography,
		&p.CRMV, &p.IsNotVeterinarian, &p.CreatedAt); err != nil {
		return PublicProfile{}, err
	}
	if first != nil && last != nil {
		p.FirstName, p.LastName = *first, *last
	} else {
		p.FirstName, p.LastName = fallbackNames(mFirst, mGiven, mLast, mFamily)
	}
	if p.Specialties == nil {
		p.Specialties = []string{}
	}
	return p, nil
}

// Public returns the public view of any member's profile. It only reads:
// anyone may call it, so a visitor must not be able to make the server
// write (a member who never opened their profile is shown from the sign-up
// metadata, exactly as the profile would be created).
func (s *Service) Public(ctx context.Context, userID string) (PublicProfile, error) {
	id, err := userUUID(userID)
	if err != nil {
		return PublicProfile{}, err
	}
	p, err := scanPublic(s.pool.QueryRow(ctx, publicSelect+` WHERE u.id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return PublicProfile{}, errUserNotFound()
	}
	if err != nil {
		return PublicProfile{}, fmt.Errorf("get public profile: %w", err)
	}
	return p, nil
}

// FallbackName is how a member without a name is shown.
const FallbackName = "Usuário VetClube"

// DisplayName is how notices name a member: first and last name, or
// FallbackName when the member has none or cannot be read.
func (s *Service) DisplayName(ctx context.Context, userID string) string {
	p, err := s.Public(ctx, userID)
	if err != nil {
		return FallbackName
	}
	if n := strings.TrimSpace(p.FirstName + " " + p.LastName); n != "" {
		return n
	}
	return FallbackName
}

// PublicMany returns the public profiles of userIDs in one query, keyed by
// id. Unknown or malformed ids are simply absent: callers enriching a list
// show what they have.
func (s *Service) PublicMany(ctx context.Context, userIDs []string) (map[string]PublicProfile, error) {
	ids := make([]string, 0, len(userIDs))
	for _, raw := range userIDs {
		if id, err := userUUID(raw); err == nil {
			ids = append(ids, id.String())
		}
	}
	out := make(map[string]PublicProfile, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.pool.Query(ctx, publicSelect+` WHERE u.id = ANY($1::uuid[])`, ids)
	if err != nil {
		return nil, fmt.Errorf("get public profiles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		p, err := scanPublic(rows)
		if err != nil {
			return nil, fmt.Errorf("get public profiles: %w", err)
		}
		out[p.ID] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("get public profiles: %w", err)
	}
	return out, nil
}
