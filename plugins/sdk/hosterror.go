//go:build !js

package sdk

import (
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Messages a user reads when the host API refuses a call for a reason the
// plugin cannot fix itself.
const (
	hostUnauthenticated = "Sua sessão expirou. Entre novamente."
	hostRateLimited     = "Muitas solicitações em pouco tempo. Aguarde um momento e tente novamente."
	hostUnavailable     = "O serviço está temporariamente indisponível. Tente novamente em instantes."
)

// HostErrorStatus is the HTTP status for an error returned by a Host call.
// The gRPC code the core answered with keeps "sign in again" (401), "wait
// and retry" (429, e.g. a VetCoins budget) and "the service is down" (503)
// apart; anything else (a refused argument, a failed query) is the plugin's
// own fault, not the user's, and stays a 500.
func HostErrorStatus(err error) int {
	st, ok := status.FromError(err)
	if !ok {
		return http.StatusInternalServerError
	}
	switch st.Code() {
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unavailable, codes.DeadlineExceeded:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// WriteHostError answers a failed Host call with its HTTP status
// (HostErrorStatus). 401, 429 and 503 carry their own pt-BR message; every
// other status carries message, the plugin's own words for what failed.
func WriteHostError(w http.ResponseWriter, err error, message string) {
	code := HostErrorStatus(err)
	switch code {
	case http.StatusUnauthorized:
		message = hostUnauthenticated
	case http.StatusTooManyRequests:
		message = hostRateLimited
	case http.StatusServiceUnavailable:
		message = hostUnavailable
	}
	WriteError(w, code, message, nil)
}
