package fakeoai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // radiographs and photos sent as JPEG
	_ "image/png"
	"math"
	"regexp"
	"strconv"
	"strings"

	_ "golang.org/x/image/webp"
)

// ToolNotice marks every answer the fake gives a tool plugin.
const ToolNotice = "(Modo demonstração: texto de exemplo gerado sem um modelo de linguagem.)"

// toolTag is the line core/ai puts in a tool prompt's rules:
// "[ferramenta=<plugin> modelo=<template> versao=<v>]".
var toolTag = regexp.MustCompile(`\[ferramenta=([a-z0-9-]+) modelo=([a-z0-9-]+) versao=[^\]]*\]`)

// field reads "Label: «value»" (or "Label: value") from a tool prompt.
func field(user, label string) string {
	re := regexp.MustCompile(`(?mi)^\s*-?\s*` + regexp.QuoteMeta(label) + `\s*:\s*(.*)$`)
	m := re.FindStringSubmatch(user)
	if m == nil {
		return ""
	}
	v := strings.TrimSpace(m[1])
	v = strings.TrimSuffix(strings.TrimPrefix(v, "«"), "»")
	return strings.TrimSpace(v)
}

// NotClinical is the fake's deterministic rule for an image that is not a
// clinical image: nearly uniform (the luminance's standard deviation under
// 12 of 255: a flat picture, a blank page) or mostly white (over 85 % of the
// pixels brighter than 230: a document). An image it cannot decode is not
// clinical either.
func NotClinical(data []byte) (bool, string) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return true, "não consegui ler a imagem"
	}
	b := img.Bounds()
	stepX, stepY := max(1, b.Dx()/64), max(1, b.Dy()/64)
	var n, white float64
	var sum, sq float64
	for y := b.Min.Y; y < b.Max.Y; y += stepY {
		for x := b.Min.X; x < b.Max.X; x += stepX {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
			sum += l
			sq += l * l
			n++
			if l > 230 {
				white++
			}
		}
	}
	if n == 0 {
		return true, "a imagem está vazia"
	}
	mean := sum / n
	sd := math.Sqrt(max(0, sq/n-mean*mean))
	switch {
	case sd < 12:
		return true, "a imagem é praticamente uniforme, sem estruturas anatômicas visíveis"
	case white/n > 0.85:
		return true, "a imagem parece um documento ou página, não um exame"
	}
	return false, ""
}

func dataURLBytes(u string) []byte {
	_, b64, ok := strings.Cut(u, ";base64,")
	if !ok {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil
	}
	return b
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// ToolAnswer composes the demonstration answer to a tool plugin's prompt
// (false when the request is not one).
func ToolAnswer(req Request) (string, bool) {
	var system, user string
	var images []string
	for _, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			system += m.Content + "\n"
		case "user":
			user = m.Content
			images = m.Images
		}
	}
	tag := toolTag.FindStringSubmatch(system)
	if tag == nil {
		return "", false
	}
	tool, tmpl := tag[1], tag[2]
	switch tool + "/" + tmpl {
	case "social-media-ia/post":
		return socialPost(user), true
	case "social-media-ia/calendario":
		return socialCalendar(user), true
	case "assistente-de-carreira/plano":
		return careerPlan(user), true
	case "assistente-de-carreira/curriculo":
		return careerCV(user), true
	case "assistente-de-carreira/entrevista-pergunta":
		n, _ := strconv.Atoi(field(user, "Número da pergunta"))
		qs := []string{
			"Conte sobre um caso clínico desafiador que você conduziu e o que aprendeu com ele.",
			"Como você explica a um tutor ansioso um diagnóstico grave e as opções de tratamento?",
			"Como você organiza o atendimento quando chegam duas emergências ao mesmo tempo?",
			"Que protocolo de biossegurança você segue entre um atendimento e outro?",
			"Onde você quer estar profissionalmente daqui a cinco anos e como esta vaga ajuda?",
		}
		return mustJSON(map[string]any{"pergunta": qs[max(0, n-1)%len(qs)] + " " + ToolNotice}), true
	case "assistente-de-carreira/entrevista-feedback":
		ans := field(user, "Resposta do candidato")
		score := min(10, 4+len(strings.Fields(ans))/12)
		return mustJSON(map[string]any{
			"feedback":         fmt.Sprintf("Sua resposta tem %d palavras. %s", len(strings.Fields(ans)), ToolNotice),
			"pontos_fortes":    []string{"Você respondeu à pergunta feita", "Tom profissional"},
			"melhorar":         []string{"Traga um exemplo concreto com resultado (método STAR)", "Feche ligando a resposta à vaga"},
			"nota":             score,
			"proxima_pergunta": "Como você lida com um tutor que discorda da conduta proposta? " + ToolNotice,
		}), true
	case "assistente-de-carreira/carta":
		name := field(user, "Nome")
		job := field(user, "Vaga")
		return mustJSON(map[string]any{"carta": fmt.Sprintf("Prezada equipe,\n\nCandidato-me à vaga de %s. Sou %s, médico(a)-veterinário(a), e acredito que minha experiência e meu compromisso com o bem-estar animal contribuirão com a equipe.\n\nColoco-me à disposição para uma entrevista.\n\nAtenciosamente,\n%s\n\n%s",
			orDefault(job, "médico-veterinário"), orDefault(name, "profissional"), orDefault(name, ""), ToolNotice)}), true
	case "diagnostico-imagem/analise":
		if len(images) == 0 {
			return "RECUSA: nenhuma imagem foi recebida.", true
		}
		if bad, why := NotClinical(dataURLBytes(images[0])); bad {
			return "RECUSA: esta imagem não parece uma imagem clínica (" + why + "). Envie uma radiografia, imagem de ultrassom, citologia ou foto dermatológica.", true
		}
		return imagingAnswer(user), true
	}
	return "", false
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

func socialPost(user string) string {
	network := orDefault(field(user, "Rede"), "Instagram")
	topic := orDefault(field(user, "Tema"), "cuidados com o pet")
	audience := orDefault(field(user, "Público"), "tutores")
	clinic := field(user, "Clínica")
	limit, _ := strconv.Atoi(field(user, "Limite de caracteres do texto"))
	if limit <= 0 {
		limit = 600
	}
	sign := ""
	if clinic != "" {
		sign = " — " + clinic
	}
	base := fmt.Sprintf("%s para %s: cuidar hoje evita sustos amanhã. Converse com o médico-veterinário de confiança e mantenha a rotina de prevenção em dia.%s %s", topic, strings.ToLower(audience), sign, ToolNotice)
	vary := func(i int) string {
		openers := []string{"Você sabia?", "Dica da semana:", "Lembrete importante:"}
		return clipRunes(openers[i]+" "+base, limit)
	}
	tagWord := strings.ReplaceAll(strings.ToLower(strings.Fields(topic + " pet")[0]), "ç", "c")
	return mustJSON(map[string]any{
		"texto":           clipRunes(base, limit),
		"hashtags":        []string{"#medicinaveterinaria", "#" + tagWord, "#saudeanimal", "#" + strings.ToLower(strings.ReplaceAll(network, " ", ""))},
		"cta":             "Fale com a nossa equipe e agende uma avaliação.",
		"sugestao_imagem": "Foto real da equipe atendendo um paciente tranquilo, luz natural, sem mostrar procedimentos.",
		"variacoes":       []string{vary(0), vary(1), vary(2)},
	})
}

func socialCalendar(user string) string {
	topic := orDefault(field(user, "Tema da semana"), "prevenção")
	days := []string{"Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado", "Domingo"}
	angles := []string{"curiosidade", "dica prática", "bastidores da clínica", "mito ou verdade", "depoimento (com autorização)", "lembrete de prevenção", "mensagem de fim de semana"}
	var posts []map[string]any
	for i, d := range days {
		posts = append(posts, map[string]any{
			"dia": d, "tema": topic + ": " + angles[i],
			"texto":    fmt.Sprintf("%s sobre %s. %s", strings.ToUpper(angles[i][:1])+angles[i][1:], topic, ToolNotice),
			"hashtags": []string{"#medicinaveterinaria", "#saudeanimal"},
		})
	}
	return mustJSON(map[string]any{"posts": posts})
}

func careerPlan(user string) string {
	goal := orDefault(field(user, "Objetivo"), "crescer na carreira")
	area := orDefault(field(user, "Áreas de interesse"), "clínica de pequenos animais")
	region := orDefault(field(user, "Região"), "Brasil")
	courses := []string{}
	for _, l := range strings.Split(user, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "* Curso: "); ok && len(courses) < 3 {
			courses = append(courses, c)
		}
	}
	return mustJSON(map[string]any{
		"resumo":          fmt.Sprintf("Plano para %s em %s, com foco em %s. %s", strings.ToLower(goal), region, area, ToolNotice),
		"areas_em_alta":   []string{"Medicina felina", "Diagnóstico por imagem", "Medicina de animais silvestres e exóticos", "Saúde única e vigilância sanitária"},
		"cursos_vetclube": courses,
		"certificacoes":   []string{"Título de especialista pelo CFMV (via associação de especialidade)", "Certificação em ultrassonografia point-of-care"},
		"caminhos":        []string{"Residência multiprofissional em universidade federal (2 anos)", "Especialização lato sensu reconhecida pelo MEC", "Mestrado em ciência animal"},
		"proximos_passos": []string{"Atualize o perfil e o CRMV no VetClube", "Escolha um curso e conclua em 30 dias", "Candidate-se a duas vagas em Oportunidades"},
	})
}

func careerCV(user string) string {
	name := orDefault(field(user, "Nome"), "Profissional")
	title := orDefault(field(user, "Título"), "Médico(a)-veterinário(a)")
	return mustJSON(map[string]any{
		"nome":                name,
		"titulo":              title,
		"resumo_profissional": fmt.Sprintf("%s com atuação orientada ao bem-estar animal, comunicação clara com tutores e atualização contínua. %s", title, ToolNotice),
		"experiencias":        []string{orDefault(field(user, "Experiência"), "Atendimento clínico em pequenos animais")},
		"formacao":            []string{orDefault(field(user, "Formação"), "Graduação em Medicina Veterinária")},
		"competencias":        []string{"Clínica médica", "Comunicação com tutores", "Trabalho em equipe", "Biossegurança"},
		"dicas":               []string{"Quantifique resultados (atendimentos por mês, protocolos implantados)", "Inclua o número do CRMV e a UF"},
	})
}

func imagingAnswer(user string) string {
	species := orDefault(field(user, "Espécie"), "paciente")
	region := orDefault(field(user, "Região"), "região examinada")
	return mustJSON(map[string]any{
		"achados": []string{
			fmt.Sprintf("Imagem de %s de %s com contraste e nitidez suficientes para descrição geral. %s", strings.ToLower(region), strings.ToLower(species), ToolNotice),
			"Áreas de radiopacidade/ecogenicidade heterogênea que merecem avaliação por um especialista.",
		},
		"diferenciais": []map[string]any{
			{"diagnostico": "Processo inflamatório", "probabilidade": "mais provável", "raciocinio": "Padrão difuso sem efeito de massa evidente."},
			{"diagnostico": "Processo infeccioso", "probabilidade": "possível", "raciocinio": "Compatível com o quadro, depende de exames laboratoriais."},
			{"diagnostico": "Neoplasia", "probabilidade": "menos provável", "raciocinio": "Não se vê massa delimitada, mas não pode ser descartada por uma imagem."},
		},
		"exames":      []string{"Hemograma e bioquímico", "Nova projeção ou estudo complementar", "Laudo por radiologista"},
		"observacoes": "Análise de apoio: a ausência de achados não exclui doença.",
	})
}
