package subscriptions

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"
)

// PremiumBenefits is what Premium gives, in the order the trial-expired
// dialog, /pricing and the e-mails list them. The PWA's copy is
// web/src/features/subscription/benefits.ts (a test keeps them equal). Each
// is true of the server: a premium member passes every trial limit
// (CheckTrialLimits, RecordUsageTx answer "premium"). VetClube IA is the
// one exception to "unlimited": premium has its own daily quota and monthly
// token budget (AI_PREMIUM_DAILY_MESSAGES, AI_PREMIUM_MONTHLY_TOKENS), far
// above the trial's, so the promise is "without the trial's limit".
var PremiumBenefits = []string{"Pacientes ilimitados", "Todos os desafios profissionais", "Consultas à IA sem o limite do teste", "Todos os cursos e certificados"}

// limitWords says a trial limit in words: singular, plural, and the order
// the promise lists them in (the benefits' order).
var limitWords = map[string]struct {
	one, many, none string
	order           int
}{
	"patients":         {"paciente", "pacientes", "nenhum paciente", 0},
	"challenges":       {"desafio profissional", "desafios profissionais", "nenhum desafio profissional", 1},
	"ai_consultations": {"consulta à VetClube IA", "consultas à VetClube IA", "nenhuma consulta à VetClube IA", 2},
	"courses":          {"curso", "cursos", "nenhum curso", 3},
	"simulados":        {"simulado", "simulados", "nenhum simulado", 4},
}

// TrialAllowances is what the trial allows, one phrase per configured limit
// (TRIAL_LIMITS), in the benefits' order: "até 10 pacientes", "1 curso",
// "nenhum curso" for a zero limit, "por dia" after a limit counted per day
// (daily). Limits without words are said by their type name, so nothing the
// server counts is left unsaid.
func TrialAllowances(limits map[string]int, daily map[string]bool) []string {
	types := make([]string, 0, len(limits))
	for t := range limits {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool {
		oi, iok := limitWords[types[i]]
		oj, jok := limitWords[types[j]]
		switch {
		case iok && jok:
			return oi.order < oj.order
		case iok != jok:
			return iok
		}
		return types[i] < types[j]
	})
	out := make([]string, 0, len(types))
	for _, t := range types {
		n := limits[t]
		w, ok := limitWords[t]
		if !ok {
			w.one, w.many, w.none = t, t, "nenhum uso de "+t
		}
		var phrase string
		switch {
		case n < 0:
			out = append(out, w.many+" sem limite")
			continue
		case n == 0:
			phrase = w.none
		case n == 1:
			phrase = "até 1 " + w.one
		default:
			phrase = fmt.Sprintf("até %d %s", n, w.many)
		}
		if daily[t] {
			phrase += " por dia"
		}
		out = append(out, phrase)
	}
	return out
}

// TrialPromise is what the confirmation e-mail says confirming gives: the
// trial's length and its real limits, then what Premium gives. It is built
// from the same limits CheckTrialLimits applies, so the e-mail cannot
// promise what the trial refuses. Empty when there is no trial.
func TrialPromise(days int, limits map[string]int, daily map[string]bool) string {
	if days <= 0 {
		return ""
	}
	s := fmt.Sprintf("Ao confirmar, você ganha %d %s de teste grátis do Premium", days, plural(days, "dia", "dias"))
	if allow := TrialAllowances(limits, daily); len(allow) > 0 {
		s += ", com " + joinPT(allow)
	}
	benefits := make([]string, len(PremiumBenefits))
	for i, b := range PremiumBenefits {
		benefits[i] = strings.ToLower(b[:1]) + b[1:]
	}
	return s + ". Com o Premium: " + joinPT(benefits) + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinPT joins "a, b e c".
func joinPT(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " e " + items[len(items)-1]
}

// CountsPerDay records that limitType's use is counted per day (by the
// feature that counts it), so the trial's promise says "por dia".
func (s *Service) CountsPerDay(limitType string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.daily == nil {
		s.daily = map[string]bool{}
	}
	s.daily[limitType] = true
}

// TrialPromise is the package's TrialPromise for this service's trial and
// limits (and the limits counted per day).
func (s *Service) TrialPromise() string {
	days := int((s.trialLen + 24*time.Hour - 1) / (24 * time.Hour))
	s.mu.Lock()
	daily := maps.Clone(s.daily)
	s.mu.Unlock()
	return TrialPromise(days, s.limits, daily)
}
