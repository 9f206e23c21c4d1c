package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/plugins/sdk/hostside"
)

// The floor is the least any server can do for each endpoint: net/http and a
// bare pgx pool running the SQL the real endpoint runs for the read (or the
// write) itself, with the same parameters and roughly the same JSON. Its
// authentication is a lookup of the bearer token in a Go map, so the floor
// deliberately carries no session, authorisation or logging cost: the
// distance to it is the real server's overhead.
//
// The SQL below mirrors core/points (Ledger.Balance), core/auth
// (Service.SessionUser, the one query a session read runs when the principal
// is not cached; a cached principal answers with no query at all, so the real
// session read may beat this floor), core/profiles (Service.Get) and
// core/notifications (Store.List); keep it in step when those queries change
// (the feed's floor takes its SQL from core/community itself, feed.go). The JSON-key check
// in the harness catches a changed response shape.

type floor struct {
	pool   *pgxpool.Pool
	tokens map[string]string // bearer token → user id; read-only once serving
}

func newFloorHandler(pool *pgxpool.Pool, tokens map[string]string, echo *hostside.Client) http.Handler {
	f := &floor{pool: pool, tokens: tokens}
	mux := http.NewServeMux()
	mux.Handle("GET /api/points/balance", f.auth(f.balance))
	mux.Handle("GET /api/auth/session", f.auth(f.session))
	mux.Handle("GET /api/profile", f.auth(f.profile))
	mux.Handle("GET /api/notifications", f.auth(f.notifications))
	mux.Handle("POST /api/checkin", f.auth(f.checkin))
	mux.Handle("GET /api/tools/"+fixturePlugin+"/echo", f.auth(f.pluginEcho(echo)))
	mux.Handle("GET /api/content/"+newsPlugin, f.auth(f.newsList))
	mux.Handle("GET "+feedPath, f.auth(f.feed))
	mux.Handle("GET "+coursesPath, f.auth(f.courseList))
	mux.Handle("GET "+videosPath, f.auth(f.videoList))
	return mux
}

func (f *floor) auth(h func(w http.ResponseWriter, r *http.Request, userID string) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		userID, ok := f.tokens[token]
		if !ok {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthenticated"})
			return
		}
		if err := h(w, r, userID); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "23505" {
				writeJSON(w, http.StatusConflict, map[string]string{"error": "already checked in"})
				return
			}
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		}
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

func (f *floor) balance(w http.ResponseWriter, r *http.Request, userID string) error {
	var b struct {
		ChallengePoints int `json:"challenge_points"`
		CoursePoints    int `json:"course_points"`
		PostPoints      int `json:"post_points"`
		CheckinPoints   int `json:"checkin_points"`
		OtherPoints     int `json:"other_points"`
		PointsSpent     int `json:"points_spent"`
		TotalPoints     int `json:"total_points"`
	}
	err := f.pool.QueryRow(r.Context(), `SELECT challenge_points, course_points, post_points, checkin_points, other_points, points_spent, total_points
		FROM user_total_points WHERE user_id = $1`, userID).
		Scan(&b.ChallengePoints, &b.CoursePoints, &b.PostPoints, &b.CheckinPoints, &b.OtherPoints, &b.PointsSpent, &b.TotalPoints)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	return writeJSON(w, http.StatusOK, b)
}

func (f *floor) session(w http.ResponseWriter, r *http.Request, userID string) error {
	var u struct {
		ID        string    `json:"id"`
		Email     string    `json:"email"`
		Provider  string    `json:"provider"`
		Roles     []string  `json:"roles"`
		CreatedAt time.Time `json:"created_at"`
		// TwoStepPending: a staff role waiting for the second step (the
		// bench's members hold none, so it answers false as the real one).
		TwoStepPending bool `json:"two_step_pending"`
	}
	err := f.pool.QueryRow(r.Context(), `SELECT id, email, provider, created_at,
		coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM user_roles r WHERE r.user_id = users.id), '{}')
		FROM users WHERE id = $1`, userID).Scan(&u.ID, &u.Email, &u.Provider, &u.CreatedAt, &u.Roles)
	if err != nil {
		return err
	}
	for _, role := range u.Roles {
		if role == "super_admin" || role == "revisor" || role == "moderador" {
			u.TwoStepPending = true
		}
	}
	u.Roles = append(u.Roles, "user")
	return writeJSON(w, http.StatusOK, map[string]any{"user": u})
}

func (f *floor) profile(w http.ResponseWriter, r *http.Request, userID string) error {
	var p struct {
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
	err := f.pool.QueryRow(r.Context(), `SELECT p.user_id::text, p.first_name, p.last_name, u.email, p.avatar_url, p.verified,
	p.specialties, p.connections_count, p.has_crmv, p.title, p.biography, p.crmv, p.phone,
	p.has_whatsapp, p.is_not_veterinarian, p.cpf, p.time_zone, p.created_at, p.updated_at
		FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = $1`, userID).
		Scan(&p.ID, &p.FirstName, &p.LastName, &p.Email, &p.AvatarURL, &p.Verified,
			&p.Specialties, &p.ConnectionsCount, &p.HasCRMV, &p.Title, &p.Biography, &p.CRMV, &p.Phone,
			&p.HasWhatsApp, &p.IsNotVeterinarian, &p.CPF, &p.TimeZone, &p.CreatedAt, &p.UpdatedAt)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, p)
}

type relatedUser struct {
	ID        string `json:"id"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	AvatarURL string `json:"avatar_url"`
}

type notification struct {
	ID               string            `json:"id"`
	UserID           string            `json:"user_id"`
	Type             string            `json:"type"`
	Title            string            `json:"title"`
	Message          string            `json:"message"`
	IsRead           bool              `json:"is_read"`
	CreatedAt        time.Time         `json:"created_at"`
	RelatedUserID    *string           `json:"related_user_id"`
	RelatedPostID    *string           `json:"related_post_id"`
	RelatedCommentID *string           `json:"related_comment_id"`
	Link             string            `json:"link"`
	Data             map[string]string `json:"data"`
	GroupCount       int               `json:"group_count"`
	RelatedUser      *relatedUser      `json:"related_user"`
}

// notifications runs what core/notifications runs for the list: the page,
// one read of the page's related users, and the unread count.
func (f *floor) notifications(w http.ResponseWriter, r *http.Request, userID string) error {
	ctx := r.Context()
	rows, err := f.pool.Query(ctx, `SELECT id, user_id, type, title, message, is_read, created_at,
	related_user_id, related_post_id, related_comment_id, link, data, group_count
		FROM notifications WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2`, userID, 50)
	if err != nil {
		return err
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (notification, error) {
		var n notification
		err := row.Scan(&n.ID, &n.UserID, &n.Type, &n.Title, &n.Message, &n.IsRead, &n.CreatedAt,
			&n.RelatedUserID, &n.RelatedPostID, &n.RelatedCommentID, &n.Link, &n.Data, &n.GroupCount)
		return n, err
	})
	if err != nil {
		return err
	}
	var ids []string
	for _, n := range list {
		if n.RelatedUserID != nil && !slices.Contains(ids, *n.RelatedUserID) {
			ids = append(ids, *n.RelatedUserID)
		}
	}
	if len(ids) > 0 {
		rows, err := f.pool.Query(ctx, `SELECT user_id::text, first_name, last_name, avatar_url FROM profiles WHERE user_id = ANY($1::uuid[])`, ids)
		if err != nil {
			return err
		}
		users, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (relatedUser, error) {
			var p relatedUser
			err := row.Scan(&p.ID, &p.FirstName, &p.LastName, &p.AvatarURL)
			return p, err
		})
		if err != nil {
			return err
		}
		for i := range list {
			for j := range users {
				if list[i].RelatedUserID != nil && *list[i].RelatedUserID == users[j].ID {
					list[i].RelatedUser = &users[j]
				}
			}
		}
	}
	var unread int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE user_id = $1 AND NOT is_read`, userID).Scan(&unread); err != nil {
		return err
	}
	if list == nil {
		list = []notification{}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"notifications": list, "unread_count": unread})
}

// checkinZone is the default zone of a user who has chosen none; the seeded
// users have it on their profiles.
const checkinZone = "America/Sao_Paulo"

var saoPaulo = func() *time.Location {
	loc, err := time.LoadLocation(checkinZone)
	if err != nil {
		panic(err)
	}
	return loc
}()

// checkin is the write floor: one durable transaction that inserts the day's
// row (unique on user and day) and upserts the user's check-in total, sent in
// a single round trip. No streak rules, no ledger, no events: the rest of
// what a check-in does is the real server's cost.
func (f *floor) checkin(w http.ResponseWriter, r *http.Request, userID string) error {
	now := time.Now().In(saoPaulo)
	today := now.Format(time.DateOnly)
	y, m, d := now.Date()
	midnight := time.Date(y, m, d+1, 0, 0, 0, 0, saoPaulo)
	var total, totalPoints int
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`INSERT INTO checkins (user_id, local_date, time_zone, sequence, points, completed_streak)
		VALUES ($1, $2, $3, 1, 5, false)`, userID, today, checkinZone)
	b.Queue(`INSERT INTO user_daily_checkin (user_id, last_checkin, sequence_count, total_checkins, total_checkin_points, time_zone)
		VALUES ($1, $2, 1, 1, 5, $3)
		ON CONFLICT (user_id) DO UPDATE SET last_checkin = EXCLUDED.last_checkin,
			total_checkins = user_daily_checkin.total_checkins + 1,
			total_checkin_points = user_daily_checkin.total_checkin_points + 5, updated_at = now()
		RETURNING total_checkins, total_checkin_points`, userID, today, checkinZone).
		QueryRow(func(row pgx.Row) error { return row.Scan(&total, &totalPoints) })
	b.Queue("COMMIT")
	conn, err := f.pool.Acquire(r.Context())
	if err != nil {
		return err
	}
	// pgxpool drops a connection released inside a transaction, so a failed
	// batch cannot leak an open one.
	defer conn.Release()
	if err := conn.SendBatch(r.Context(), b).Close(); err != nil {
		_, _ = conn.Exec(context.WithoutCancel(r.Context()), "ROLLBACK")
		return err
	}
	return writeJSON(w, http.StatusCreated, map[string]any{
		"last_checkin": today, "sequence_count": 1, "total_checkins": total, "total_checkin_points": totalPoints,
		"last_bonus_at": nil, "time_zone": checkinZone, "today": today, "checked_in_today": true,
		"can_check_in": false, "broken": false, "next_midnight": midnight,
		"sequence": 1, "points_awarded": 5, "completed_streak": false, "bonus_points": 0,
	})
}
