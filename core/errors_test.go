package core_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/vetclube/vetclube/core"
)

// A "not signed in" answer is recognised by its cause, whatever its text
// and however deep it is wrapped.
func TestNotSignedInIsRecognisedByItsCause(t *testing.T) {
	for _, err := range []error{core.NotSignedIn(), core.NotSignedInToWrite(), fmt.Errorf("comment: %w", core.NotSignedInToWrite())} {
		if !errors.Is(err, core.ErrNotSignedIn) {
			t.Errorf("%v does not wrap ErrNotSignedIn", err)
		}
		if core.ErrorCode(err) != core.EUNAUTHORIZED {
			t.Errorf("%v: code %s, want %s", err, core.ErrorCode(err), core.EUNAUTHORIZED)
		}
	}
	if got := core.ErrorMessage(core.NotSignedIn()); got != "Usuário não autenticado" {
		t.Errorf("message %q", got)
	}
	if got := core.ErrorMessage(core.NotSignedInToWrite()); got != "Usuário não autenticado. Por favor, faça login." {
		t.Errorf("write message %q", got)
	}
	if errors.Is(core.Errorf(core.EUNAUTHORIZED, core.MsgNotSignedIn), core.ErrNotSignedIn) {
		t.Error("an error with the same text but no cause must not count as not signed in")
	}
}
