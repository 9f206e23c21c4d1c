package seed

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vetclube/vetclube/core/engagement"
)

// demoComment is a comment of the demo feed: author indexes demoVets
// (demoUserIndex: the demo user), minutesAfter dates it after its post,
// replies answer it (one level) and likers like it.
type demoComment struct {
	author       int
	minutesAfter int
	text         string
	likers       []int
	replies      []demoComment
}

// demoComments are the demo feed's conversations, by post slug.
var demoComments = map[string][]demoComment{
	"demo-ana-colecistectomia": {
		{3, 20, "Uso sim, lidocaína 25–50 µg/kg/min com cetamina em dose baixa. A diferença na dor pós-operatória é enorme.", []int{0, 7}, []demoComment{
			{0, 35, "Obrigada, Diego! Estou usando 30 µg/kg/min. Vou manter por 24 h e reavaliar.", []int{3}, nil},
			{7, 50, "Só fiquem de olho em gatos: a lidocaína em infusão pede muito mais cuidado neles.", []int{0, 3}, nil},
		}},
		{demoUserIndex, 90, "Que bom que ele está estável! Manda notícias da alta. 🙏", []int{0}, nil},
	},
	"demo-bruno-triagem-cardio": {
		{9, 40, "Excelente resumo. Na clínica geral o VHS salva muita gente de uma consulta tardia.", []int{1}, []demoComment{
			{1, 65, "Exatamente, João. E radiografia de tórax em dois planos, sempre!", []int{9}, nil},
		}},
		{4, 120, "Vou imprimir e colar no consultório. 👏", nil, nil},
	},
	"demo-camila-alopecia-felina": {
		{10, 30, "Caí nessa no primeiro mês de residência! O tricograma virou rotina desde então.", []int{2}, []demoComment{
			{2, 55, "Todo mundo cai uma vez, Larissa. O importante é o tricograma! 😄", []int{10}, nil},
		}},
	},
	"demo-helena-boas-vindas": {
		{2, 25, "Bem-vinda, Helena! Dermatologia precisa de mais gente apaixonada. 💚", []int{demoUserIndex}, []demoComment{
			{demoUserIndex, 40, "Obrigada, Camila! Já estou acompanhando seus casos por aqui.", []int{2}, nil},
		}},
		{9, 60, "Seja bem-vinda! Qualquer dúvida de gestão de clínica, pode chamar.", nil, nil},
	},
	"demo-fabio-arara": {
		{8, 15, "Que emoção! Três meses de dedicação que valeram cada minuto.", []int{5}, nil},
		{0, 45, "Que trabalho lindo, Fábio. Qual foi a técnica de osteossíntese?", nil, []demoComment{
			{5, 80, "Pino intramedular com fixador externo tie-in, Ana. Aves toleram muito bem.", []int{0, 11}, nil},
		}},
	},
	"demo-henrique-esteira": {
		{11, 60, "Aqui fazemos três sessões por semana a partir do 10º dia, começando com 5 minutos.", []int{7}, []demoComment{
			{7, 95, "Ótimo, Marcos. Vocês ajustam a altura da água pelo escore de marcha?", nil, nil},
			{11, 130, "Sim! Água na altura do trocânter maior no início, descendo conforme ganha força.", []int{7}, nil},
		}},
	},
	"demo-joao-orcamento": {
		{1, 35, "Orçamento escrito, item por item, e sempre com plano A e plano B. Muda tudo.", []int{9, 2}, nil},
		{demoUserIndex, 70, "Eu explico primeiro o diagnóstico e só depois os valores. O tutor entende o porquê de cada exame.", []int{9}, nil},
	},
	"demo-larissa-residencia": {
		{2, 20, "Boa sorte, Larissa! Leia também o capítulo de citologia do *Small Animal Dermatology*.", []int{10}, nil},
	},
	"demo-diego-plantao": {
		{4, 30, "Hahaha, verdade absoluta. Força para quem está de plantão! 💪", []int{3}, nil},
	},
	"demo-isabela-ninhada": {
		{5, 45, "Parabéns! Nove filhotes saudáveis é resultado de muito acompanhamento.", []int{8}, nil},
	},
}

// seedComments writes the demo feed's conversations through the engagement
// service (counters and notifications included) on the first run only: once
// any demo post has a comment, a developer's edits are left alone. Comments
// are dated after their post.
func (a demo) seedComments(ctx context.Context, demoUserID string, stdout io.Writer) error {
	if a.Content.Engagement == nil {
		return nil
	}
	posts, err := a.demoPostIDs(ctx)
	if err != nil || len(posts) == 0 {
		return err
	}
	ids := make([]string, 0, len(posts))
	for _, id := range posts {
		ids = append(ids, id)
	}
	var seeded bool
	if err := a.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM engagement_comments WHERE item_id = ANY($1::uuid[]))`, ids).Scan(&seeded); err != nil {
		return fmt.Errorf("seed comments: %w", err)
	}
	if seeded {
		return nil
	}
	// Comments are dated after their post was published.
	posted := map[string]time.Time{}
	for _, id := range posts {
		it, err := a.Content.Store.Get(ctx, id)
		if err != nil {
			return fmt.Errorf("seed comments: %w", err)
		}
		posted[id] = it.CreatedAt
		if it.PublishedAt != nil {
			posted[id] = *it.PublishedAt
		}
	}
	vetIDs, err := a.demoVetIDs(ctx)
	if err != nil {
		return err
	}
	who := func(i int) string {
		if i == demoUserIndex {
			return demoUserID
		}
		return vetIDs[demoVets[i].email]
	}
	eng := a.Content.Engagement
	count := 0
	var write func(slug, postID, parentID string, n int, c demoComment) error
	write = func(slug, postID, parentID string, n int, c demoComment) error {
		author := who(c.author)
		if author == "" {
			return nil
		}
		key := fmt.Sprintf("seed:comment:%s:%d", slug, n)
		if parentID != "" {
			key = fmt.Sprintf("seed:reply:%s:%d", slug, n)
		}
		made, _, err := eng.CreateComment(ctx, author, postID, engagement.NewComment{Content: c.text, ParentID: parentID, IdempotencyKey: key})
		if err != nil {
			return fmt.Errorf("seed comment on %s: %w", slug, err)
		}
		count++
		if err := eng.BackdateComment(ctx, made.ID, posted[postID].Add(time.Duration(c.minutesAfter)*time.Minute)); err != nil {
			return fmt.Errorf("date comment on %s: %w", slug, err)
		}
		for _, l := range c.likers {
			if liker := who(l); liker != "" && liker != author {
				if _, err := eng.SetCommentReaction(ctx, liker, made.ID, engagement.ReactionLike); err != nil {
					return fmt.Errorf("seed comment like on %s: %w", slug, err)
				}
			}
		}
		for i, r := range c.replies {
			if err := write(slug, postID, made.ID, n*10+i, r); err != nil {
				return err
			}
		}
		return nil
	}
	for slug, thread := range demoComments {
		postID, ok := posts[slug]
		if !ok {
			continue
		}
		for i, c := range thread {
			if err := write(slug, postID, "", i, c); err != nil {
				return err
			}
		}
	}
	if count > 0 {
		fmt.Fprintf(stdout, "  %-24s %d comentários e respostas\n", "Comentários:", count)
	}
	return nil
}

// demoVetIDs maps the demo vets' emails to their user ids.
func (a demo) demoVetIDs(ctx context.Context) (map[string]string, error) {
	emails := make([]string, len(demoVets))
	for i, v := range demoVets {
		emails[i] = v.email
	}
	rows, err := a.Pool.Query(ctx, `SELECT email, id::text FROM users WHERE email = ANY($1)`, emails)
	if err != nil {
		return nil, fmt.Errorf("demo vets: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var email, id string
		if err := rows.Scan(&email, &id); err != nil {
			return nil, fmt.Errorf("demo vets: %w", err)
		}
		out[email] = id
	}
	return out, rows.Err()
}
