package push

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// Texts of the test push sent from /push-test.
const (
	TestTitle = "Notificação de teste"
	TestBody  = "As notificações do VetClube estão funcionando neste dispositivo."
)

// SendTest pushes a test message to every active device of userID at once
// (quiet hours do not apply: the member asked for it) and returns how many
// devices it goes to.
func (s *Service) SendTest(ctx context.Context, userID string) (int, error) {
	if !s.Configured() {
		return 0, errUnavailable()
	}
	var id string
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		ok, err := s.limiter.AllowTx(ctx, tx, "push_test:"+userID, s.opts.TestRule)
		if err != nil {
			return err
		}
		if !ok {
			return core.Errorf(core.ERATELIMITED, MsgTestRateLimited)
		}
		id, err = s.CreateMessage(ctx, tx, Message{Kind: "test", Title: TestTitle, Body: TestBody, URL: "/push-test"})
		if err != nil {
			return err
		}
		n, err = s.AddDeliveries(ctx, tx, id, []Target{{UserID: userID}}, false)
		if err != nil {
			return err
		}
		if n == 0 {
			// Roll back the empty message.
			return errNotSubscribed()
		}
		return nil
	})
	if err != nil {
		if core.ErrorCode(err) != core.EINTERNAL {
			return 0, err
		}
		return 0, fmt.Errorf("send test push: %w", err)
	}
	s.Dispatch(ctx, id)
	return n, nil
}

// MsgTestRateLimited refuses a test push beyond Options.TestRule.
const MsgTestRateLimited = "Você enviou muitas notificações de teste. Aguarde um minuto e tente novamente."

func errNotSubscribed() error {
	return core.Errorf(core.ECONFLICT, "Você precisa estar inscrito nas notificações para testar")
}

func errUnavailable() error {
	return core.Errorf(core.EUNAVAILABLE, "Serviço de notificações temporariamente indisponível. Tente novamente em alguns minutos.")
}
