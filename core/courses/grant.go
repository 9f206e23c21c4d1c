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
// transaction (a reward bought with VetCoins): the enrolment is made, or
// kept, counted as open, so every lesson opens whatever the member's plan.
// Granting twice changes nothing.
func GrantTx(ctx context.Context, tx pgx.Tx, courseID, userID string) error {
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
	_, err := tx.Exec(ctx, `INSERT INTO course_enrolments (course_id, user_id, counted_in_limit) VALUES ($1, $2, true)
		ON CONFLICT (course_id, user_id) DO UPDATE SET counted_in_limit = true`, courseID, userID)
	if err != nil {
		return fmt.Errorf("grant course: %w", err)
	}
	return nil
}
