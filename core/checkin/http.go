package checkin

import (
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

// HandleGet serves GET /api/checkin: the caller's check-in card state.
func HandleGet(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		st, err := s.Get(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}

type checkInRequest struct {
	// TimeZone is the browser's IANA zone, kept on first use.
	TimeZone string `json:"time_zone"`
}

// HandleCheckIn serves POST /api/checkin. 201 with the result; 409
// 'Você já fez check-in hoje!' on a second attempt the same local day.
func HandleCheckIn(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		var req checkInRequest
		if r.ContentLength != 0 {
			var err error
			req, err = httpx.Decode[checkInRequest](r)
			if err != nil && !(r.ContentLength < 0 && isEmptyBody(err)) {
				return err
			}
		}
		res, err := s.CheckIn(r.Context(), core.PrincipalFrom(r.Context()).UserID, req.TimeZone)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusCreated, res)
	})
}

func isEmptyBody(err error) bool {
	return errors.Is(err, core.ErrEmptyBody) || errors.Is(err, io.EOF)
}

// HandleReset serves POST /api/checkin/reset: resets a broken streak to 0.
func HandleReset(log *slog.Logger, s *Service) http.Handler {
	return httpx.Handle(log, func(w http.ResponseWriter, r *http.Request) error {
		st, err := s.ResetBroken(r.Context(), core.PrincipalFrom(r.Context()).UserID)
		if err != nil {
			return err
		}
		return httpx.Encode(w, http.StatusOK, st)
	})
}
