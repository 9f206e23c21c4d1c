// Package core holds the domain types every VetClube feature shares: the
// error type with its pt-BR message and the signed-in principal. It imports
// nothing from the rest of the module, so every other package may import it.
package core

import (
	"errors"
	"fmt"
)

// Error codes. The HTTP layer maps each to a status; anything else is EINTERNAL.
const (
	EINVALID      = "invalid"            // 400/422: bad input, with per-field messages
	EUNAUTHORIZED = "unauthorized"       // 401: no or bad credentials
	EFORBIDDEN    = "forbidden"          // 403: signed in but not allowed
	ENOTFOUND     = "not_found"          // 404
	ECONFLICT     = "conflict"           // 409: unique key, already done today, ...
	ERATELIMITED  = "rate_limited"       // 429
	ELOCKED       = "locked"             // 423: account locked out
	ETOOLARGE     = "too_large"          // 413: request body over the limit
	EMETHOD       = "method_not_allowed" // 405: the path exists, the method does not
	EUNAVAILABLE  = "unavailable"        // 503: a dependency is down
	EINTERNAL     = "internal"           // 500: never leaks details
)

// Error is an application error: a machine code, the message a user reads
// (pt-BR, from the product's message catalogue where it has one) and, for validation,
// one message per field.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
	// Err is the underlying cause; it is logged, never shown.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotSignedIn is the cause of every "not signed in" answer. Callers
// recognise that answer with errors.Is, never by its text.
var ErrNotSignedIn = errors.New("not signed in")

// MsgNotSignedIn answers a visitor on an action for members only.
const MsgNotSignedIn = "Usuário não autenticado"

// MsgNotSignedInWrite answers a visitor who tries to write (a comment, a
// post, a report): it also says what to do.
const MsgNotSignedInWrite = "Usuário não autenticado. Por favor, faça login."

// NotSignedIn is the 401 for a visitor on an action for members only.
func NotSignedIn() *Error {
	return &Error{Code: EUNAUTHORIZED, Message: MsgNotSignedIn, Err: ErrNotSignedIn}
}

// NotSignedInToWrite is the 401 for a visitor who tries to write.
func NotSignedInToWrite() *Error {
	return &Error{Code: EUNAUTHORIZED, Message: MsgNotSignedInWrite, Err: ErrNotSignedIn}
}

// ErrEmptyBody is the cause of the 400 for a request body with nothing in
// it, so a handler for which the body is optional can tell it apart.
var ErrEmptyBody = errors.New("empty request body")

// Errorf returns an *Error with a formatted user-facing message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns a validation error with per-field messages.
func Invalid(message string, fields map[string]string) *Error {
	return &Error{Code: EINVALID, Message: message, Fields: fields}
}

// ErrorCode returns the code of the first *Error in err's chain, or EINTERNAL.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing message of err, or the generic pt-BR
// message for anything unexpected.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != EINTERNAL {
		return e.Message
	}
	return "Erro interno. Tente novamente."
}
