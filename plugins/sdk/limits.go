package sdk

import (
	"fmt"
	"net/http"
	"regexp"
)

// Limit is the host's answer to CheckLimit: whether the signed-in member may
// have one more of a trial-limited thing (a patient, a simulado).
type Limit struct {
	Name    string // the limit's name, as declared in Manifest.Limits
	Allowed bool
	Limit   int // the member's limit; -1 when unlimited (Premium)
	Used    int // what the plugin said the member already has
	// Reason is the pt-BR refusal ("Você atingiu o limite de 10 pacientes do
	// teste gratuito. …"), empty when Allowed.
	Reason string
}

// Unlimited is Limit.Limit for a member without a limit (Premium).
const Unlimited = -1

// limitNamePattern is what a limit name looks like (TRIAL_LIMITS' keys).
var limitNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// ValidLimitName reports whether name can be declared in Manifest.Limits.
func ValidLimitName(name string) bool { return limitNamePattern.MatchString(name) }

// limitNouns says each known limit in pt-BR: one, many, and what Premium
// gives instead.
var limitNouns = map[string]struct{ one, many, premium string }{
	"patients":         {"paciente", "pacientes", "pacientes ilimitados"},
	"simulados":        {"simulado", "simulados", "simulados ilimitados"},
	"challenges":       {"desafio profissional", "desafios profissionais", "todos os desafios profissionais"},
	"courses":          {"curso", "cursos", "todos os cursos"},
	"ai_consultations": {"consulta à VetClube IA", "consultas à VetClube IA", "consultas à VetClube IA sem o limite do teste"},
}

// LimitReason is the pt-BR refusal for a member who reached limit of name:
// "Você atingiu o limite de 10 pacientes do teste gratuito. Assine o Premium
// para ter pacientes ilimitados.". A name without words gets a general
// sentence.
func LimitReason(name string, limit int) string {
	w, ok := limitNouns[name]
	switch {
	case !ok:
		return "Você atingiu o limite do teste gratuito. Assine o Premium para continuar."
	case limit <= 0:
		return fmt.Sprintf("O teste gratuito não inclui %s. Assine o Premium para ter %s.", w.many, w.premium)
	case limit == 1:
		return fmt.Sprintf("Você atingiu o limite de 1 %s do teste gratuito. Assine o Premium para ter %s.", w.one, w.premium)
	}
	return fmt.Sprintf("Você atingiu o limite de %d %s do teste gratuito. Assine o Premium para ter %s.", limit, w.many, w.premium)
}

// WriteLimit answers a refused limit: 403 with the core's error shape, the
// pt-BR reason, "upgrade": true (the web app then shows the Premium
// invitation) and the figures. Call it only when lim.Allowed is false.
func WriteLimit(w http.ResponseWriter, lim Limit) {
	reason := lim.Reason
	if reason == "" {
		reason = LimitReason(lim.Name, lim.Limit)
	}
	WriteJSON(w, http.StatusForbidden, map[string]any{"error": map[string]any{
		"code": ErrorCode(http.StatusForbidden), "message": reason, "fields": nil,
		"upgrade": true,
		"limit":   map[string]any{"name": lim.Name, "limit": lim.Limit, "used": lim.Used},
	}})
}
