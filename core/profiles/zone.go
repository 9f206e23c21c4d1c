package profiles

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/postgres"
)

// ChosenZoneQuery returns, for the user id in $1, the time zone the user
// chose on the profile, and no row when there is none. The profile's
// default zone is not a choice: it defers to the zone the browser sent on
// the first check-in. It is one statement so that the check-in can send it
// in its first round trip.
const ChosenZoneQuery = `SELECT time_zone FROM profiles WHERE user_id = $1 AND time_zone <> '` + DefaultTimeZone + `'`

// ChosenZone is ChosenZoneQuery as a lookup on pool; ok is false when the
// user has no profile or kept the default zone.
func ChosenZone(pool *pgxpool.Pool) func(ctx context.Context, userID string) (zone string, ok bool, err error) {
	return func(ctx context.Context, userID string) (string, bool, error) {
		var zone string
		err := pool.QueryRow(ctx, ChosenZoneQuery, userID).Scan(&zone)
		if postgres.IsNoRows(err) {
			return "", false, nil
		}
		if err != nil {
			return "", false, fmt.Errorf("read profile time zone: %w", err)
		}
		return zone, true, nil
	}
}
