// Package password holds the password rules shared with the web client
// (testdata/cases.json is the common list of cases both test against) and
// the argon2id hashing of stored passwords.
package password

import (
	"strings"
	"unicode"
)

// Reasons a password is refused, in the order they are listed to the user.
const (
	ReasonTooShort      = "deve ter pelo menos 8 caracteres"
	ReasonNoUpper       = "deve conter pelo menos uma letra maiúscula"
	ReasonNoLower       = "deve conter pelo menos uma letra minúscula"
	ReasonNoDigit       = "deve conter pelo menos um número"
	ReasonNoSymbol      = "deve conter pelo menos um caractere especial"
	ReasonHasEmailLocal = "não pode conter a parte do email antes do @"
)

// MinLength is the shortest password accepted, counted in characters.
const MinLength = 8

// Validate returns the reasons password is refused for the account email, or
// nil when it is acceptable.
func Validate(password, email string) []string {
	var upper, lower, digit, symbol bool
	for _, r := range password {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsLower(r):
			lower = true
		case unicode.IsDigit(r):
			digit = true
		case unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r):
			symbol = true
		}
	}
	var reasons []string
	if len([]rune(password)) < MinLength {
		reasons = append(reasons, ReasonTooShort)
	}
	if !upper {
		reasons = append(reasons, ReasonNoUpper)
	}
	if !lower {
		reasons = append(reasons, ReasonNoLower)
	}
	if !digit {
		reasons = append(reasons, ReasonNoDigit)
	}
	if !symbol {
		reasons = append(reasons, ReasonNoSymbol)
	}
	local, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(email)), "@")
	if local != "" && strings.Contains(strings.ToLower(password), local) {
		reasons = append(reasons, ReasonHasEmailLocal)
	}
	return reasons
}

// Message is the user-facing error for reasons (spec §5).
func Message(reasons []string) string {
	return "Senha inválida: " + strings.Join(reasons, ", ")
}
