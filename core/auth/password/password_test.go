package password_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/auth/password"
)

type sharedCase struct {
	Email    string   `json:"email"`
	Password string   `json:"password"`
	Reasons  []string `json:"reasons"`
	Message  string   `json:"message"`
}

// TestSharedCases runs the cases the web client's validator is tested against too.
func TestSharedCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []sharedCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 8 {
		t.Fatalf("only %d cases loaded", len(file.Cases))
	}
	all := map[string]bool{}
	for _, c := range file.Cases {
		got := password.Validate(c.Password, c.Email)
		if !slices.Equal(got, c.Reasons) && !(len(got) == 0 && len(c.Reasons) == 0) {
			t.Errorf("Validate(%q, %q) = %q, want %q", c.Password, c.Email, got, c.Reasons)
		}
		if len(c.Reasons) > 0 && password.Message(got) != c.Message {
			t.Errorf("Message for %q = %q, want %q", c.Password, password.Message(got), c.Message)
		}
		for _, r := range c.Reasons {
			all[r] = true
		}
	}
	// Every reason the validator knows is covered by at least one shared case.
	for _, r := range []string{password.ReasonTooShort, password.ReasonNoUpper, password.ReasonNoLower,
		password.ReasonNoDigit, password.ReasonNoSymbol, password.ReasonHasEmailLocal} {
		if !all[r] {
			t.Errorf("no shared case covers %q", r)
		}
	}
}

func TestHashVerify(t *testing.T) {
	h, err := password.Default.Hash("Boa#Senha1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q does not record the argon2id parameters", h)
	}
	h2, _ := password.Default.Hash("Boa#Senha1")
	if h == h2 {
		t.Error("two hashes of one password are equal: salt is not random")
	}
	if ok, err := password.Verify("Boa#Senha1", h); !ok || err != nil {
		t.Errorf("Verify(right) = %v, %v", ok, err)
	}
	if ok, err := password.Verify("Boa#Senha2", h); ok || err != nil {
		t.Errorf("Verify(wrong) = %v, %v", ok, err)
	}
	if _, err := password.Verify("x", "$2a$10$notargon"); err == nil {
		t.Error("Verify accepted a malformed hash")
	}
}

func TestMaxLength(t *testing.T) {
	ok := "Aa1#" + strings.Repeat("é", password.MaxLength-4)
	if password.TooLong(ok) || len(password.Validate(ok, "x@y.z")) != 0 {
		t.Errorf("a %d-character password was refused: %v", password.MaxLength, password.Validate(ok, "x@y.z"))
	}
	long := ok + "x"
	if !password.TooLong(long) || !slices.Equal(password.Validate(long, "x@y.z"), []string{password.ReasonTooLong}) {
		t.Errorf("a %d-character password: %v", password.MaxLength+1, password.Validate(long, "x@y.z"))
	}
	if !password.TooLong(strings.Repeat("a", 1<<20)) {
		t.Error("1 MiB password not too long")
	}
}
