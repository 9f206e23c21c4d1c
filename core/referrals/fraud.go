package referrals

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// Verdict is the anti-fraud outcome of a referral.
type Verdict string

const (
	Approved Verdict = "approved"
	Flagged  Verdict = "flagged" // held for the staff's review
	Rejected Verdict = "rejected"
)

// Reason codes: what the checks found, or why a referral ended unrewarded.
const (
	ReasonSelf           = "self_referral"
	ReasonSameEmail      = "same_email"
	ReasonSameCPF        = "same_cpf"
	ReasonSameDevice     = "same_device"
	ReasonDisposable     = "disposable_email"
	ReasonIPVelocity     = "ip_velocity"
	ReasonRing           = "ring"
	ReasonSameCard       = "same_card"
	ReasonCapMonth       = "cap_month"
	ReasonCapTotal       = "cap_total"
	ReasonExpired        = "expired"
	ReasonRefund         = "refund"
	ReasonDispute        = "dispute"
	ReasonReviewRejected = "review_rejected"
)

// reasonText is each reason in pt-BR, as the referrer and the staff read it.
var reasonText = map[string]string{
	ReasonSelf:           "autoindicação não é permitida",
	ReasonSameEmail:      "o e-mail é o mesmo de quem indicou ou de outra indicação",
	ReasonSameCPF:        "o CPF é o mesmo de quem indicou ou de outra indicação",
	ReasonSameDevice:     "o cadastro foi feito no mesmo dispositivo de quem indicou",
	ReasonDisposable:     "e-mails temporários não são aceitos",
	ReasonIPVelocity:     "muitos cadastros com o mesmo código a partir da mesma rede em uma hora",
	ReasonRing:           "indicações cruzadas entre as mesmas pessoas",
	ReasonSameCard:       "o cartão de pagamento é o mesmo de quem indicou",
	ReasonCapMonth:       "limite mensal de indicações recompensadas atingido",
	ReasonCapTotal:       "limite total de indicações recompensadas atingido",
	ReasonExpired:        "o indicado não assinou dentro do prazo",
	ReasonRefund:         "o pagamento do indicado foi reembolsado",
	ReasonDispute:        "o pagamento do indicado foi contestado",
	ReasonReviewRejected: "reprovada na análise da equipe",
}

// ReasonText is reason in pt-BR ("" for an unknown code).
func ReasonText(reason string) string { return reasonText[reason] }

// ReasonsText joins reasons in pt-BR, in order.
func ReasonsText(reasons []string) string {
	out := make([]string, 0, len(reasons))
	for _, r := range reasons {
		if t := reasonText[r]; t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "; ")
}

// rejecting reasons end a referral; the others hold it for review.
var rejecting = map[string]bool{
	ReasonSelf: true, ReasonSameEmail: true, ReasonSameCPF: true, ReasonDisposable: true,
	ReasonRing: true, ReasonSameCard: true,
}

// Facts is what the checks look at, gathered from the database (and from
// billing's card fingerprints before the reward).
type Facts struct {
	ReferrerID, RefereeID string
	ReferrerEmail         string
	RefereeEmail          string
	// SiblingEmails are the normalised e-mails of the referrer's other referees.
	SiblingEmails []string
	ReferrerCPF   string
	RefereeCPF    string
	SiblingCPFs   []string
	// ReferrerDevices are the device ids seen for the referrer.
	ReferrerDevices []string
	RefereeDevice   string
	// SignupsFromIP counts earlier sign-ups with this code from this IP in the last hour.
	SignupsFromIP int
	// Ring: the referee referred the referrer, or through one member in between.
	Ring bool
	// Card fingerprints (empty when billing has none yet).
	ReferrerCards []string
	RefereeCards  []string
}

// MaxSignupsPerIPHour is how many sign-ups one code may get from one IP in
// an hour before the next is held for review.
const MaxSignupsPerIPHour = 5

// Check evaluates the facts: the reasons found and the verdict they imply.
func Check(f Facts) (Verdict, []string) {
	var reasons []string
	add := func(r string) {
		if !slices.Contains(reasons, r) {
			reasons = append(reasons, r)
		}
	}
	if f.ReferrerID != "" && f.ReferrerID == f.RefereeID {
		add(ReasonSelf)
	}
	re := NormaliseEmail(f.RefereeEmail)
	if re != "" && (re == NormaliseEmail(f.ReferrerEmail) || slices.Contains(f.SiblingEmails, re)) {
		add(ReasonSameEmail)
	}
	if f.RefereeCPF != "" && (f.RefereeCPF == f.ReferrerCPF || slices.Contains(f.SiblingCPFs, f.RefereeCPF)) {
		add(ReasonSameCPF)
	}
	if f.RefereeDevice != "" && slices.Contains(f.ReferrerDevices, f.RefereeDevice) {
		add(ReasonSameDevice)
	}
	if Disposable(f.RefereeEmail) {
		add(ReasonDisposable)
	}
	if f.SignupsFromIP >= MaxSignupsPerIPHour {
		add(ReasonIPVelocity)
	}
	if f.Ring {
		add(ReasonRing)
	}
	for _, c := range f.RefereeCards {
		if c != "" && slices.Contains(f.ReferrerCards, c) {
			add(ReasonSameCard)
			break
		}
	}
	verdict := Approved
	for _, r := range reasons {
		if rejecting[r] {
			return Rejected, reasons
		}
		verdict = Flagged
	}
	return verdict, reasons
}

// NormaliseEmail folds the variants of one mailbox together: case, a
// "+tag" and, for Gmail, the dots of the local part.
func NormaliseEmail(email string) string {
	email = strings.ToLower(strings.TrimSpace(email))
	at := strings.LastIndex(email, "@")
	if at <= 0 {
		return email
	}
	local, domain := email[:at], email[at+1:]
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	if domain == "googlemail.com" {
		domain = "gmail.com"
	}
	if domain == "gmail.com" {
		local = strings.ReplaceAll(local, ".", "")
	}
	return local + "@" + domain
}

//go:embed disposable_domains.txt
var disposableList string

var disposableDomains = func() map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(disposableList, "\n") {
		line = strings.ToLower(strings.TrimSpace(line))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if reservedDomain(line) {
			panic(fmt.Sprintf("referrals: reserved domain %q in disposable_domains.txt", line))
		}
		m[line] = true
	}
	return m
}()

// reservedDomain is a domain kept for examples, tests and development.
func reservedDomain(d string) bool {
	switch d {
	case "example.com", "example.org", "example.net", "vetclube.dev":
		return true
	}
	for _, tld := range []string{".test", ".example", ".invalid", ".localhost"} {
		if strings.HasSuffix(d, tld) || d == tld[1:] {
			return true
		}
	}
	return strings.HasSuffix(d, ".example.com") || strings.HasSuffix(d, ".vetclube.dev")
}

// Disposable reports whether email's domain (or a parent) is a throwaway
// service. Reserved example domains never are.
func Disposable(email string) bool {
	at := strings.LastIndex(email, "@")
	if at < 0 {
		return false
	}
	d := strings.ToLower(strings.TrimSpace(email[at+1:]))
	if reservedDomain(d) {
		return false
	}
	for d != "" {
		if disposableDomains[d] {
			return true
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			break
		}
		d = d[i+1:]
	}
	return false
}
