package ai

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// DisclaimerVersion is the version of the disclaimer a member accepts; a new
// text bumps it and everyone accepts again.
const DisclaimerVersion = 1

// Disclaimer is shown in the chat and accepted once per member. The
// assistant is clinical decision support for veterinarians (CFMV Resolução
// 1.465/2022: in-person care is the reference standard).
const Disclaimer = "A VetClube IA é um apoio à decisão clínica para médicos-veterinários. " +
	"Ela não faz diagnóstico nem prescrição, não substitui o exame presencial (padrão de referência, " +
	"Resolução CFMV nº 1.465/2022) e não emite receitas de medicamentos controlados. " +
	"Confirme doses na bula ou na literatura e use seu julgamento clínico."

// systemPrompt sets the assistant's role and rules; the numbered sources
// follow it.
const systemPrompt = `Você é a VetClube IA, assistente de apoio à decisão clínica para médicos-veterinários no Brasil.
Regras:
- Responda em português do Brasil, de forma objetiva, em Markdown (listas e tabelas quando ajudarem).
- Você apoia a decisão do veterinário: não dá diagnóstico definitivo nem prescrição; o atendimento presencial é o padrão de referência (Resolução CFMV nº 1.465/2022).
- Nunca redija, emita nem ofereça receitas de medicamentos controlados (regime de controle especial do MAPA; na telemedicina exigem assinatura eletrônica qualificada ICP-Brasil). Se pedirem, explique esse caminho.
- Doses: só com o resultado de uma calculadora ou com uma fonte citada; caso contrário escreva "confirme na bula ou na literatura".
- Doenças de notificação obrigatória (IN MAPA nº 50/2013): lembre que a suspeita deve ser notificada ao serviço veterinário oficial (listas 1 e 2: imediatamente, em até 24 h).
- Em sinais de emergência, recomende atendimento presencial imediato antes de qualquer outra orientação.
- Use as fontes numeradas abaixo quando forem pertinentes e cite-as com o número entre colchetes, como [1]. Não invente fontes nem números que não estejam na lista.`

// fold lower-cases s and removes its accents.
func fold(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// redFlag is one emergency sign: the label shown and the folded word
// prefixes that reveal it (each pattern's words must appear in order, each
// as the start of a word).
type redFlag struct {
	label    string
	patterns []string
}

// redFlags is the pt-BR red-flag lexicon: a question naming one of these
// signs shows the emergency banner before the answer streams.
var redFlags = []redFlag{
	{"dispneia", []string{"dispne", "dificuldade respirat", "dificuldade para respirar", "nao consegue respirar", "nao respira", "respiracao ofegante", "respirando com a boca aberta", "cianose", "cianot", "lingua roxa"}},
	{"colapso", []string{"colaps", "desmai", "inconscien", "nao responde", "desfalec", "sincope"}},
	{"convulsão", []string{"convuls", "crise epilet", "status epilep", "estado de mal epilep", "tremores generalizados"}},
	{"intoxicação/envenenamento", []string{"intoxica", "envenen", "veneno", "chumbinho", "raticida", "ingeriu chocolate", "comeu chocolate", "ingeriu uva", "ingeriu xilitol", "ingeriu paracetamol", "tomou paracetamol", "organofosfor", "carbamato"}},
	{"obstrução uretral", []string{"obstrucao uretral", "obstrucao urinaria", "nao urina", "nao consegue urinar", "sem urinar", "bexiga distendida", "tampao uretral", "bloqueio uretral"}},
	{"dilatação-vólvulo gástrica", []string{"dilatacao volvulo", "dilatacao gastrica", "volvulo", "torcao gastrica", "torcao de estomago", "abdomen distendido", "abdome distendido", "barriga inchada"}},
	{"trauma grave", []string{"trauma grave", "politrauma", "atropel", "queda de altura", "fratura exposta", "mordedura grave", "ferimento grave", "traumatismo craniano"}},
	{"hemorragia", []string{"hemorrag", "sangramento intenso", "sangramento ativo", "sangrando muito", "sangue em grande quantidade", "hematemese", "melena intensa"}},
	{"choque", []string{"choque", "mucosas palidas", "tpc aumentado", "hipotens", "pulso fraco"}},
	{"hipertermia/insolação", []string{"insolac", "intermac", "hipertermia grave", "golpe de calor"}},
	{"acidente ofídico ou picada", []string{"picada de cobra", "ofidic", "serpente", "escorpi", "picada de abelha", "anafilax"}},
	{"distocia", []string{"distoc", "parto complicado", "parto travado", "filhote entalado"}},
	{"abdome agudo", []string{"abdome agudo", "abdomen agudo", "dor abdominal intensa"}},
	{"paralisia súbita", []string{"paralisia subita", "paraplegia aguda", "perdeu o movimento das patas", "nao anda de repente"}},
}

// RedFlags lists the emergency signs named in text (labels, in lexicon order).
func RedFlags(text string) []string {
	words := " " + wordsOnly(fold(text)) + " "
	out := []string{}
	for _, f := range redFlags {
		for _, p := range f.patterns {
			if strings.Contains(words, " "+p) {
				out = append(out, f.label)
				break
			}
		}
	}
	return out
}

// wordsOnly keeps letters and digits, every other run becoming one space.
func wordsOnly(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ")
}

// EmergencyBanner is the banner's text for the flags found.
func EmergencyBanner(flags []string) string {
	return "Possível emergência (" + strings.Join(flags, ", ") + "): priorize o atendimento veterinário presencial imediato. " +
		"Esta resposta é apoio à decisão e não substitui a avaliação clínica."
}

// controlled are folded names of drugs under special control (MAPA's
// controlled-substance regime; Portaria SVS/MS 344/1998 lists) a member
// might ask the assistant to prescribe.
var controlled = []string{"tramadol", "morfina", "metadona", "fentanil", "cetamina", "quetamina", "ketamina", "diazepam",
	"midazolam", "fenobarbital", "butorfanol", "buprenorfina", "codeina", "meperidina", "petidina", "tiletamina", "zolazepam",
	"clonazepam", "alprazolam", "gabapentina", "pregabalina", "acepromazina", "xilazina", "canabidiol", "cbd", "controlado", "controlados", "tarja preta"}

var prescribeWords = []string{"receita", "receituario", "prescrev", "prescric", "notificacao de receita", "assina", "emit"}

// AsksControlledPrescription says whether text asks for a prescription of
// a controlled drug, which VetClube never writes (CFMV Res. 1.465/2022:
// controlled drugs remotely need an ICP-Brasil qualified signature; MAPA's
// special-control regime).
func AsksControlledPrescription(text string) bool {
	words := " " + wordsOnly(fold(text)) + " "
	drug := false
	for _, d := range controlled {
		if strings.Contains(words, " "+d+" ") || strings.Contains(words, " "+d) && len(d) > 6 {
			drug = true
			break
		}
	}
	if !drug {
		return false
	}
	for _, p := range prescribeWords {
		if strings.Contains(words, " "+p) {
			return true
		}
	}
	return false
}

// ControlledNotice opens the answer to such a request.
const ControlledNotice = "> **A VetClube IA não redige nem emite receitas de medicamentos controlados.** " +
	"Eles seguem o regime de controle especial do MAPA (notificação de receita, cadastro no SIPEAGRO) e, " +
	"na telemedicina, exigem assinatura eletrônica qualificada ICP-Brasil (Resolução CFMV nº 1.465/2022). " +
	"Emita a receita você mesmo, pelo caminho oficial, após a avaliação do paciente."

// citationRe matches a citation marker: [1] or [1, 3].
var citationRe = regexp.MustCompile(`\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]`)

// KeepCitations removes from text every citation number outside 1..n (a
// marker left with none is removed whole) and returns the numbers kept,
// sorted.
func KeepCitations(text string, n int) (string, []int) {
	seen := map[int]bool{}
	out := citationRe.ReplaceAllStringFunc(text, func(m string) string {
		var kept []string
		for _, p := range strings.Split(m[1:len(m)-1], ",") {
			k, err := strconv.Atoi(strings.TrimSpace(p))
			if err == nil && k >= 1 && k <= n {
				kept = append(kept, strconv.Itoa(k))
				seen[k] = true
			}
		}
		if len(kept) == 0 {
			return ""
		}
		return "[" + strings.Join(kept, ", ") + "]"
	})
	out = strings.ReplaceAll(out, " \n", "\n")
	cited := make([]int, 0, len(seen))
	for k := range seen {
		cited = append(cited, k)
	}
	sort.Ints(cited)
	return out, cited
}

// doseRe finds a dose per weight or per surface ("10 mg/kg", "0,2 mL/kg",
// "5 mcg/kg/min", "100 UI/kg", "20 mg/m²").
var doseRe = regexp.MustCompile(`(?i)\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ug|g|ml|mL|UI|U|mEq|gotas)\s*/\s*(?:kg|m²|m2)`)

// DoseCaution is appended to a paragraph with a dose that neither cites a
// source nor comes from a calculator result.
const DoseCaution = "_(confirme na bula ou na literatura)_"

// MarkDoses appends DoseCaution to every paragraph (or list item) that
// states a dose without a citation marker, a calculator result ("Cálculo:")
// or the caution already.
func MarkDoses(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if !doseRe.MatchString(l) || citationRe.MatchString(l) || strings.Contains(l, "Cálculo:") ||
			strings.Contains(fold(l), "confirme na bula") {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), "|") {
			continue // a table row: the caution goes after the table
		}
		lines[i] = strings.TrimRight(l, " ") + " " + DoseCaution
	}
	out := strings.Join(lines, "\n")
	// A table with an uncited dose gets the caution once, below it.
	if strings.Contains(out, "|") && doseInUncitedTable(lines) && !strings.Contains(out, DoseCaution) {
		out += "\n\n" + DoseCaution
	}
	return out
}

func doseInUncitedTable(lines []string) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "|") && doseRe.MatchString(t) && !citationRe.MatchString(t) {
			return true
		}
	}
	return false
}

// TitleFrom makes a conversation title from its first question: the first
// line, at most 60 characters, cut at a word.
func TitleFrom(question string) string {
	q := strings.TrimSpace(question)
	if i := strings.IndexByte(q, '\n'); i >= 0 {
		q = q[:i]
	}
	q = strings.Join(strings.Fields(q), " ")
	r := []rune(q)
	if len(r) <= 60 {
		if q == "" {
			return DefaultTitle
		}
		return q
	}
	cut := string(r[:60])
	if i := strings.LastIndexByte(cut, ' '); i > 20 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// DefaultTitle names a conversation before its first question.
const DefaultTitle = "Nova conversa"

// notifiable are folded names of diseases on MAPA's IN 50/2013 lists 1 and
// 2 (notified immediately, within 24 h, on any suspicion), as a member may
// write them.
var notifiable = []struct{ label, pattern string }{
	{"raiva", "raiva"},
	{"febre aftosa", "aftosa"},
	{"influenza aviária", "influenza aviaria"},
	{"influenza aviária", "gripe aviaria"},
	{"doença de Newcastle", "newcastle"},
	{"mormo", "mormo"},
	{"peste suína clássica", "peste suina"},
	{"peste suína africana", "peste suina africana"},
	{"febre do Nilo Ocidental", "nilo ocidental"},
	{"encefalopatia espongiforme bovina", "encefalopatia espongiforme"},
	{"encefalopatia espongiforme bovina", "vaca louca"},
	{"anemia infecciosa equina", "anemia infecciosa equina"},
	{"tuberculose bovina", "tuberculose bovina"},
	{"brucelose", "brucelose"},
}

// NotifiableDiseases lists the notifiable diseases named in text.
func NotifiableDiseases(text string) []string {
	words := " " + wordsOnly(fold(text)) + " "
	var out []string
	for _, d := range notifiable {
		if strings.Contains(words, " "+d.pattern) && !slices.Contains(out, d.label) {
			out = append(out, d.label)
		}
	}
	return out
}

// NotifiableNotice opens an answer about a notifiable disease (MAPA IN
// 50/2013: notification by any professional is compulsory).
func NotifiableNotice(diseases []string) string {
	return "> **Notificação obrigatória (IN MAPA nº 50/2013):** " + strings.Join(diseases, ", ") +
		" — a suspeita deve ser notificada ao serviço veterinário oficial; nas listas 1 e 2, imediatamente (em até 24 horas)."
}
