package prompt

import "fmt"

// Defaults of the per-tool AI quota: generations per day (São Paulo) for a
// member without Premium, and the generous cap for Premium.
const (
	DefaultTrialDaily   = 5
	DefaultPremiumDaily = 100
)

// LimitMessage is the pt-BR reason a generation is refused when the
// member's daily quota for the tool is used up.
func LimitMessage(limit int, premium bool) string {
	if premium {
		return fmt.Sprintf("Você atingiu o limite diário de %d gerações de IA desta ferramenta. Ele volta à meia-noite (horário de Brasília).", limit)
	}
	return fmt.Sprintf("Você usou as %d gerações de IA de hoje desta ferramenta. Elas voltam à meia-noite (horário de Brasília). "+
		"Assine o Premium para usar sem o limite do teste.", limit)
}
