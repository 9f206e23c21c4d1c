package seed

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// demoChallenge is one demo challenge; its period is relative to the day
// the seed first runs (start startDays from now, lasting days).
type demoChallenge struct {
	key, title, summary, kind, difficulty, specialty string
	startDays, days, points                          int
	premium                                          bool
	fields                                           map[string]any
}

var demoChallenges = []demoChallenge{
	{key: "caso-cao-tosse-cronica", title: "Caso clínico: cão idoso com tosse e intolerância ao exercício",
		summary: "Um Poodle de 11 anos com tosse noturna: do sopro ao estadiamento.", kind: "caso_clinico", difficulty: "medio",
		specialty: "cardiologia", startDays: -2, days: 7, points: 90, fields: map[string]any{
			"description":   "Leia o caso, veja as imagens e responda às três perguntas. A discussão é liberada depois do envio.",
			"history":       "**Thor**, Poodle macho castrado, 11 anos, 6,2 kg. Tosse seca principalmente à noite há 3 semanas, cansa nos passeios e dorme mais que o habitual. Sem vacinas atrasadas; alimentação comercial.",
			"exam_findings": "FC 168 bpm, FR 44 mpm em repouso, mucosas róseas, TPC 2 s. Sopro sistólico grau V/VI em foco mitral. Radiografia torácica: aumento de átrio esquerdo com elevação da traqueia e padrão intersticial peri-hilar. Ecocardiograma: espessamento e prolapso da valva mitral, AE/Ao 2,1.",
			"explanation":   "Trata-se de doença mixomatosa da valva mitral (DMVM) com remodelamento cardíaco e sinais de congestão: estágio C do consenso ACVIM. O tratamento inclui furosemida, pimobendan e um IECA, com reavaliação da frequência respiratória em repouso em casa.",
			"q1_text":       "Qual o diagnóstico mais provável?", "q1_options": "Doença mixomatosa da valva mitral\nCardiomiopatia dilatada\nColapso de traqueia isolado\nDirofilariose", "q1_correct": "A",
			"q1_explanation": "Cão pequeno, idoso, com sopro mitral intenso e aumento de AE: quadro típico de DMVM.",
			"q2_text":        "Em que estágio ACVIM o paciente se encontra?", "q2_options": "B1\nB2\nC\nD", "q2_correct": "C",
			"q2_explanation": "Há remodelamento e sinais clínicos de insuficiência cardíaca congestiva: estágio C.",
			"q3_text":        "Qual fármaco, além do diurético, tem maior evidência neste estágio?", "q3_options": "Atenolol\nPimobendan\nDigoxina\nPrednisolona", "q3_correct": "B",
			"q3_explanation": "O pimobendan prolonga a sobrevida em cães com DMVM em estágio C (estudo QUEST).",
		}},
	{key: "quiz-dermatologia-semana", title: "Quiz semanal: dermatologia de pequenos animais",
		summary: "Três perguntas rápidas sobre prurido, otite e dermatofitose.", kind: "quiz", difficulty: "facil",
		specialty: "dermatologia", startDays: -1, days: 6, points: 30, fields: map[string]any{
			"description": "Quiz rápido para revisar a dermatologia do dia a dia.",
			"explanation": "Revise os critérios de Favrot para dermatite atópica e a cultura fúngica como padrão para dermatofitose.",
			"q1_text":     "Qual exame confirma a dermatofitose?", "q1_options": "Lâmpada de Wood\nCultura fúngica\nCitologia de pele", "q1_correct": "B",
			"q2_text": "O principal agente de otite externa por levedura em cães é:", "q2_options": "Malassezia pachydermatis\nCandida albicans\nMicrosporum canis", "q2_correct": "A",
			"q3_text": "A dermatite atópica canina costuma começar:", "q3_options": "Antes dos 3 anos\nDepois dos 8 anos\nSó em cães idosos", "q3_correct": "A",
		}},
	{key: "caso-emergencia-dilatacao-gastrica", title: "Caso clínico: dilatação-vólvulo gástrica",
		summary: "Um Pastor Alemão com distensão abdominal aguda: estabilizar antes de operar.", kind: "caso_clinico", difficulty: "dificil",
		specialty: "emergencias", startDays: 3, days: 7, points: 120, premium: true, fields: map[string]any{
			"description":   "Um caso de emergência para quem gosta de decisões rápidas.",
			"history":       "Rex, Pastor Alemão, 7 anos, 38 kg, comeu muito e brincou logo depois; há 2 horas tenta vomitar sem sucesso.",
			"exam_findings": "Abdome cranial distendido e timpânico, FC 180 bpm, pulso fraco, TPC 3 s. Radiografia lateral direita: sinal de 'dupla bolha'.",
			"explanation":   "A DVG exige estabilização (fluidoterapia agressiva, descompressão) e cirurgia com gastropexia.",
			"q1_text":       "Primeira conduta?", "q1_options": "Cirurgia imediata sem estabilizar\nFluidoterapia e descompressão gástrica\nAntiemético e observação", "q1_correct": "B",
		}},
	{key: "sequencia-estudos-semana", title: "Sequência de estudos: três aulas nesta semana",
		summary: "Conclua três aulas de qualquer curso até o encerramento.", kind: "estudos", difficulty: "facil",
		specialty: "clinica_geral", startDays: -1, days: 7, points: 40, fields: map[string]any{
			"description":  "Escolha um curso em **Cursos** e conclua três aulas durante a semana. As aulas concluídas desde o início do desafio contam; quem atinge a meta até o encerramento recebe os VetCoins.",
			"lessons_goal": 3,
		}},
	{key: "ajude-colegas-comunidade", title: "Comunidade: ajude dois colegas nesta semana",
		summary: "Responda dúvidas de colegas; conta quando o autor marca o seu comentário como a resposta.", kind: "comunidade",
		difficulty: "medio", specialty: "clinica_geral", startDays: -1, days: 7, points: 50, fields: map[string]any{
			"description":  "Abra a **Comunidade**, ajude colegas com dúvidas clínicas e de gestão. Quando o autor da publicação marcar o seu comentário como a resposta, ele conta para a meta.",
			"answers_goal": 2,
		}},
	{key: "quiz-preventiva-vacinas", title: "Quiz semanal: vacinação de cães e gatos",
		summary: "Protocolos essenciais segundo as diretrizes da WSAVA.", kind: "quiz", difficulty: "facil",
		specialty: "medicina_preventiva", startDays: -14, days: 7, points: 30, fields: map[string]any{
			"description": "Quiz sobre vacinas essenciais e intervalos de reforço.",
			"explanation": "As vacinas essenciais protegem contra doenças graves e amplamente distribuídas; a última dose filhote deve ser com 16 semanas ou mais.",
			"q1_text":     "Com que idade deve ser a última dose da série filhote?", "q1_options": "8 semanas\n12 semanas\n16 semanas ou mais", "q1_correct": "C",
			"q2_text": "Qual destas é essencial para gatos?", "q2_options": "FeLV para todos\nPanleucopenia\nClamidiose", "q2_correct": "B",
		}},
}

// seedChallenges creates and publishes the demo challenges (two active,
// one upcoming and premium-only, one finished) when the challenges plugin
// is loaded; the clinical case carries two images drawn here.
func (a demo) seedChallenges(ctx context.Context, ids map[string]string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get("desafios"); !ok || a.Challenges == nil {
		return nil
	}
	editor := content.Actor{UserID: ids["editora@vetclube.dev"], Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: ids["revisor@vetclube.dev"], Channel: content.ChannelSystem}
	now := time.Now().UTC().Truncate(time.Hour)
	created := 0
	for _, c := range demoChallenges {
		if _, err := a.Content.Store.GetPublished(ctx, "desafios", c.key, ""); err == nil {
			continue
		} else if core.ErrorCode(err) != core.ENOTFOUND {
			return fmt.Errorf("challenge %s: %w", c.key, err)
		}
		fields := map[string]any{"kind": c.kind, "difficulty": c.difficulty, "specialty": c.specialty, "points": c.points,
			"premium_only": c.premium, "starts_at": now.AddDate(0, 0, c.startDays).Format(time.RFC3339),
			"ends_at": now.AddDate(0, 0, c.startDays+c.days).Format(time.RFC3339)}
		for k, v := range c.fields {
			fields[k] = v
		}
		if c.key == "caso-cao-tosse-cronica" && a.Content.Uploads != nil {
			for i, draw := range []func() ([]byte, error){thoraxRadiograph, ecgStrip} {
				pic, err := draw()
				if err != nil {
					return err
				}
				up, err := a.Content.Uploads.Save(ctx, content.KindImage, fmt.Sprintf("%s-%d.png", c.key, i+1), bytes.NewReader(pic))
				if err != nil {
					return fmt.Errorf("challenge %s image: %w", c.key, err)
				}
				fields[fmt.Sprintf("image_%d", i+1)] = up.Key
			}
		}
		it, isNew, err := a.Content.Store.Create(ctx, editor, "desafios",
			content.Input{Slug: c.key, Title: c.title, Summary: c.summary, Fields: fields}, "seed:desafios:"+c.key)
		if err != nil {
			return fmt.Errorf("challenge %s: %w", c.key, err)
		}
		if !isNew {
			continue
		}
		created++
		for _, step := range []struct {
			actor content.Actor
			role  editorial.Role
			act   editorial.Action
		}{{editor, editorial.RoleEditor, editorial.ActionSubmit}, {revisor, editorial.RoleRevisor, editorial.ActionApprove},
			{revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
			if it, err = a.Content.Workflow.Act(ctx, step.actor, []editorial.Role{step.role}, it.ID, it.Version, step.act, ""); err != nil {
				return fmt.Errorf("challenge %s: %s: %w", c.key, step.act, err)
			}
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d desafios de demonstração criados (ativos, um próximo e um encerrado)\n", created)
	}
	return nil
}

const casePicW, casePicH = 640, 480

func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("challenge picture: %w", err)
	}
	return buf.Bytes(), nil
}

// thoraxRadiograph draws a schematic lateral chest radiograph (dark lungs,
// ribs, an enlarged cardiac silhouette): made here so the demo needs no
// downloaded image.
func thoraxRadiograph() ([]byte, error) {
	img := image.NewGray(image.Rect(0, 0, casePicW, casePicH))
	for y := 0; y < casePicH; y++ {
		for x := 0; x < casePicW; x++ {
			v := 20.0
			dx, dy := (float64(x)-320)/280, (float64(y)-250)/190
			if dx*dx+dy*dy < 1 { // thorax
				v = 70
			}
			if math.Abs(math.Mod(float64(x)+0.3*float64(y), 55)-27) < 5 && dx*dx+dy*dy < 1 { // ribs
				v = 150
			}
			hx, hy := (float64(x)-300)/120, (float64(y)-300)/110
			if hx*hx+hy*hy < 1 { // heart
				v = 190
			}
			if y > 150 && y < 170 && x > 120 && x < 330 { // trachea, lifted
				v = 35
			}
			img.SetGray(x, y, color.Gray{Y: uint8(v)})
		}
	}
	return encodePNG(img)
}

// ecgStrip draws an electrocardiogram strip on grid paper.
func ecgStrip() ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, casePicW, casePicH/2))
	for y := 0; y < casePicH/2; y++ {
		for x := 0; x < casePicW; x++ {
			c := color.RGBA{R: 255, G: 240, B: 240, A: 255}
			if x%20 == 0 || y%20 == 0 {
				c = color.RGBA{R: 240, G: 170, B: 170, A: 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	base := 130.0
	prev := base
	for x := 0; x < casePicW; x++ {
		p := math.Mod(float64(x), 70)
		y := base
		switch {
		case p > 10 && p < 18:
			y = base - 10*math.Sin((p-10)/8*math.Pi)
		case p >= 24 && p < 27:
			y = base + 12
		case p >= 27 && p < 31:
			y = base - 90
		case p >= 31 && p < 34:
			y = base + 20
		case p > 44 && p < 58:
			y = base - 18*math.Sin((p-44)/14*math.Pi)
		}
		lo, hi := math.Min(prev, y), math.Max(prev, y)
		for yy := int(lo); yy <= int(hi); yy++ {
			img.SetRGBA(x, yy, color.RGBA{A: 255})
		}
		prev = y
	}
	return encodePNG(img)
}
