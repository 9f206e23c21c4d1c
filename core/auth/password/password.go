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
	ReasonTooLong       = "deve ter no máximo 128 caracteres"
)

// MinLength is the shortest password accepted, counted in characters.
const MinLength = 8

// MaxLength is the longest password accepted, counted in characters. Hashing
// cost grows with the input, so a longer one is refused before any hashing
// (sign-up, sign-in, reset) instead of letting one request cost seconds.
const MaxLength = 128

// TooLong reports whether password exceeds MaxLength. It stops counting at
// the limit, so a megabyte of input costs no more than a few hundred bytes.
func TooLong(password string) bool {
	n := 0
	for range password {
		n++
		if n > MaxLength {
			return true
		}
	}
	return false
}

// Validate returns the reasons password is refused for the account email, or
// nil when it is acceptable.
func Validate(password, email string) []string {
	if TooLong(password) {
		// Nothing else is worth reporting about a password that cannot be used.
		return []string{ReasonTooLong}
	}
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

// Message is the user-facing error for reasons.
func Message(reasons []string) string {
	return "Senha inválida: " + strings.Join(reasons, ", ")
}
