package mail

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// EraseRecipient deletes every stored e-mail to address (the development
// mailbox and the outbox), once its account is being deleted.
func EraseRecipient(ctx context.Context, q interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}, address string) (int64, error) {
	var n int64
	for _, sql := range []string{`DELETE FROM mail_messages WHERE recipient = $1`, `DELETE FROM mail_outbox WHERE recipient = $1`} {
		tag, err := q.Exec(ctx, sql, address)
		if err != nil {
			return 0, fmt.Errorf("erase mail: %w", err)
		}
		n += tag.RowsAffected()
	}
	return n, nil
}
