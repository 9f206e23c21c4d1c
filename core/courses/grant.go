package courses

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// MsgGrantNoCourse is the refusal when a granted course is not published.
const MsgGrantNoCourse = "O curso desta recompensa não está disponível."

// GrantTx unlocks a published course for userID inside the caller's
// transaction (a reward bought with VetCoins), as grant (the reward's key):
// the enrolment is made, or kept, counted as open, so every lesson opens
// whatever the member's plan. Granting twice changes nothing; a course the
// member had already opened themselves stays theirs (RevokeGrantTx leaves
// it).
func GrantTx(ctx context.Context, tx pgx.Tx, courseID, userID, grant string) error {
	if !validUUID(courseID) {
		return core.Errorf(core.ECONFLICT, MsgGrantNoCourse)
	}
	var ok bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM course_listings WHERE item_id = $1 AND published)`, courseID).Scan(&ok); err != nil {
		return fmt.Errorf("grant course: %w", err)
	}
	if !ok {
		return core.Errorf(core.ECONFLICT, MsgGrantNoCourse)
	}
	_, err := tx.Exec(ctx, `INSERT INTO course_enrolments AS e (course_id, user_id, counted_in_limit, granted_by) VALUES ($1, $2, true, $3)
		ON CONFLICT (course_id, user_id) DO UPDATE SET counted_in_limit = true,
			granted_by = CASE WHEN e.counted_in_limit THEN e.granted_by ELSE EXCLUDED.granted_by END`, courseID, userID, grant)
	if err != nil {
		return fmt.Errorf("grant course: %w", err)
	}
	return nil
}

// RevokeGrantTx closes again the course that grant opened for userID (a
// refunded reward): the enrolment stays, with its progress and any
// certificate, but its lessons open only as the member's plan allows. It
// does nothing when grant opened nothing.
func RevokeGrantTx(ctx context.Context, tx pgx.Tx, userID, grant string) error {
	if _, err := tx.Exec(ctx, `UPDATE course_enrolments SET counted_in_limit = false, granted_by = NULL
		WHERE user_id = $1 AND granted_by = $2`, userID, grant); err != nil {
		return fmt.Errorf("revoke course grant: %w", err)
	}
	return nil
}
