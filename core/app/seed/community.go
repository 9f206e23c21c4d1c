package seed

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vetclube/vetclube/core/community"
)

// demoPost is one post of the demo feed. author indexes demoVets (-1: the
// demo user); hoursAgo dates it relative to the first seed run; likers
// index demoVets too (-1: the demo user).
type demoPost struct {
	slug     string
	author   int
	hoursAgo int
	text     string
	likers   []int
}

// demoUserIndex stands for the demo user (demo@vetclube.dev) in demoPosts.
const demoUserIndex = -1

// demoPosts are the development feed: a few days of realistic posts among
// the demo vets (and one by the demo user), with likes. Their slugs are
// stable, so other seeds (comments) find them with demoPostIDs.
var demoPosts = []demoPost{
	{"demo-ana-colecistectomia", 0, 3, "Acabei de sair de uma **colecistectomia** em um shih-tzu de 9 anos com mucocele biliar. Cirurgia longa, mas o paciente já está estável na UTI. 🙏\n\nAlguém tem usado **infusão contínua de lidocaína com cetamina** no pós-operatório de abdome? Queria trocar experiências.", []int{6, 7, 11, 3, demoUserIndex}},
	{"demo-bruno-triagem-cardio", 1, 6, "Dica rápida para quem faz triagem cardiológica na clínica geral:\n\n- sopro novo em cão idoso de raça pequena: pense em **doença mixomatosa da valva mitral**;\n- peça radiografia de tórax e, se possível, ecocardiograma;\n- VHS acima de 10,5 merece atenção.\n\nO estadiamento ACVIM muda a conduta!", []int{3, 4, 9, 0, 10, demoUserIndex}},
	{"demo-camila-alopecia-felina", 2, 9, "Caso da semana: gata de 4 anos com **alopecia simétrica** no abdome. O tricograma mostrou pontas quebradas — era lambedura excessiva, não queda de pelo. Investiguem dor e estresse antes de pensar em doença endócrina.\n\nQuantos de vocês já caíram nessa? 😅", []int{10, 9, demoUserIndex}},
	{"demo-helena-boas-vindas", demoUserIndex, 14, "Olá, colegas! Sou clínica de pequenos animais com foco em *dermatologia* e *medicina preventiva*. Feliz de fazer parte da comunidade do VetClube. 👋", []int{2, 9, 0, 3, 10}},
	{"demo-diego-chocolate", 3, 18, "Plantão de ontem: três casos de **intoxicação por chocolate** depois do fim de semana. Lembrete para orientar os tutores: quanto mais amargo o chocolate, mais teobromina.\n\nMaterial de orientação do conselho: [cfmv.gov.br](https://www.cfmv.gov.br)", []int{1, 4, 9}},
	{"demo-elisa-biosseguranca-quimio", 4, 22, "Lembrete de biossegurança na quimioterapia:\n\n1. luvas duplas próprias para quimioterápicos;\n2. avental descartável de manga longa;\n3. **cabine de segurança biológica** para o preparo.\n\nOs tutores também precisam de orientação sobre fezes e urina nas primeiras 48 h.", []int{1, 3, 8}},
	{"demo-fabio-arara", 5, 27, "Hoje soltamos uma **arara-canindé** que chegou ao centro com fratura de asa há três meses. Fisioterapia, muita paciência e um voo perfeito de volta para a natureza. 🦜\n\nDias assim pagam todos os plantões.", []int{8, 0, 1, 2, 3, 4, 6, 9, demoUserIndex}},
	{"demo-gabriela-ulcera-indolente", 6, 31, "Úlcera de córnea que não cicatriza em boxer? Pense em **úlcera indolente** (SCCED). Debridamento com cotonete seco e ceratotomia em grade resolvem a maioria dos casos — mas *nunca* faça ceratotomia em gatos!", []int{0, 11}},
	{"demo-henrique-esteira", 7, 36, "Alguém aqui faz **reabilitação com esteira aquática** no pós-operatório de hemilaminectomia? Estou montando um protocolo para a clínica e queria saber a frequência que vocês usam nas primeiras semanas.", []int{0, 11, 3}},
	{"demo-isabela-citologia", 8, 40, "Temporada de cio chegando: lembrem os tutores que a **citologia vaginal seriada** com dosagem de progesterona é o que define o melhor dia para a cobertura ou a inseminação. Contar dias no calendário não funciona para todas as cadelas.", []int{4, 5}},
	{"demo-joao-orcamento", 9, 45, "Quinze anos de clínica de bairro e uma coisa que aprendi: **explicar o orçamento com calma** evita mais reclamação do que qualquer desconto.\n\nComo vocês apresentam os valores aos tutores?", []int{1, 2, 3, 10, demoUserIndex}},
	{"demo-larissa-residencia", 10, 50, "Primeira semana de residência no setor de dermatologia! Ansiosa e feliz. Aceito sugestões de leitura — o *Muller & Kirk* já está na mesa. 📚", []int{2, 9, 0, demoUserIndex}},
	{"demo-marcos-tplo", 11, 55, "TPLO de hoje: labrador de 38 kg, ruptura completa do ligamento cruzado cranial, ângulo do platô tibial de 28°.\n\nAlguém já comparou resultados de **TPLO e TTA** em cães acima de 40 kg na rotina?", []int{0, 6, 7}},
	{"demo-ana-checklist", 0, 62, "Checklist que colei na parede do centro cirúrgico:\n\n1. jejum e medicação pré-anestésica conferidos;\n2. acesso venoso funcionando;\n3. tricotomia ampla;\n4. contagem de compressas antes e depois.\n\nParece básico, mas **salva vidas**.", []int{6, 7, 11, 1, 3, 4}},
	{"demo-bruno-congresso", 1, 70, "Congresso de cardiologia confirmado para o mês que vem. Quem vai? Bora marcar um café entre as palestras ☕", []int{4, 9}},
	{"demo-camila-otite", 2, 76, "Otite externa crônica: antes de trocar o antibiótico pela quarta vez, façam **citologia e cultura**. E investiguem a causa primária (atopia, alergia alimentar). O ouvido agradece.", []int{10, 9, 8, demoUserIndex}},
	{"demo-diego-plantao", 3, 84, "Não existe plantão tranquilo, existe plantão que ainda não começou. 😂\n\nBom fim de semana para quem está de folga e força para quem está de plantão!", []int{1, 4, 9, 0, 2, 5, 10, 11}},
	{"demo-elisa-artigo", 4, 92, "Saiu nosso artigo sobre **eletroquimioterapia em carcinoma de células escamosas** em gatos! Resultados muito animadores nas lesões de plano nasal. Quem quiser o PDF é só pedir por aqui.", []int{1, 3, 8, 2}},
	{"demo-fabio-jabutis", 5, 100, "Pergunta para os colegas de clínica: vocês atendem **jabutis**? Muitos chegam com deformidade de casco por dieta errada. Cálcio, luz UVB e alimentação adequada resolvem boa parte dos casos.", []int{8, 9}},
	{"demo-gabriela-glaucoma", 6, 108, "Glaucoma agudo é **emergência**! Pressão intraocular acima de 25 mmHg com olho vermelho e dolorido: não mande para casa esperando o especialista. Comece o tratamento já no atendimento.", []int{0, 3, 11, 7}},
	{"demo-henrique-epilepsia", 7, 116, "Convulsão em cão jovem com exames normais: epilepsia idiopática é diagnóstico de exclusão. Um **diário de crises** feito com os tutores ajuda muito a ajustar a medicação.", []int{11, 0}},
	{"demo-isabela-ninhada", 8, 124, "Nasceu a ninhada de golden que acompanhamos desde a inseminação: **9 filhotes**, todos mamando bem. Neonatologia é cansativa, mas que alegria! 🐶", []int{4, 5, 0, 1, 2, 3, 9, 10, demoUserIndex}},
	{"demo-joao-vacinacao", 9, 132, "A campanha de vacinação antirrábica da clínica bateu recorde: **312 animais** em um sábado. Obrigado à equipe e aos voluntários! 💉", []int{2, 10, 1, 3}},
	{"demo-larissa-anamnese", 10, 140, "Alguém tem um bom **roteiro de anamnese dermatológica** para compartilhar? Quero padronizar as consultas do ambulatório da residência.", []int{2, demoUserIndex}},
	{"demo-marcos-fratura-yorkshire", 11, 150, "Radiografia pós-operatória ficou linda: placa bloqueada em fratura de rádio e ulna de um yorkshire de 2 kg. Osso de palito exige muito planejamento. 🦴", []int{0, 6, 7, 3}},
}

// seedCommunity publishes the demo feed through the community service
// (VetCoins, likes and their notifications included) when the comunidade
// plugin is loaded, on the first run only: once any demo post exists, a
// developer's deletions and edits are left alone. Posts are dated over the
// last days.
func (a demo) seedCommunity(ctx context.Context, demoUserID string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get(community.TypeID); !ok || a.Community == nil {
		return nil
	}
	var seeded bool
	if err := a.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM content_items WHERE type = $1 AND slug LIKE 'demo-%')`,
		community.TypeID).Scan(&seeded); err != nil {
		return fmt.Errorf("seed community: %w", err)
	}
	if seeded {
		return nil
	}
	ids, err := a.demoVetIDs(ctx)
	if err != nil {
		return fmt.Errorf("seed community: %w", err)
	}
	who := func(i int) string {
		if i == demoUserIndex {
			return demoUserID
		}
		return ids[demoVets[i].email]
	}
	now := a.Content.Now()
	created := 0
	for _, p := range demoPosts {
		author := who(p.author)
		if author == "" {
			continue
		}
		post, isNew, err := a.Community.Create(ctx, author, community.Input{Content: p.text}, "seed:"+p.slug, community.CreateOptions{Slug: p.slug})
		if err != nil {
			return fmt.Errorf("seed post %s: %w", p.slug, err)
		}
		if isNew {
			created++
			at := now.Add(-time.Duration(p.hoursAgo) * time.Hour)
			if err := a.Content.Store.Backdate(ctx, post.ID, at); err != nil {
				return fmt.Errorf("date post %s: %w", p.slug, err)
			}
		}
		for _, l := range p.likers {
			liker := who(l)
			if liker == "" || liker == author {
				continue
			}
			if _, err := a.Community.SetLike(ctx, liker, post.ID, true); err != nil {
				return fmt.Errorf("seed like on %s: %w", p.slug, err)
			}
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %-24s %d publicações em /community\n", "Comunidade:", created)
	}
	return nil
}

func (a demo) demoPostIDs(ctx context.Context) (map[string]string, error) {
	rows, err := a.Pool.Query(ctx, `SELECT slug, id::text FROM content_items WHERE type = $1 AND slug LIKE 'demo-%'`, community.TypeID)
	if err != nil {
		return nil, fmt.Errorf("demo posts: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var slug, id string
		if err := rows.Scan(&slug, &id); err != nil {
			return nil, fmt.Errorf("demo posts: %w", err)
		}
		out[slug] = id
	}
	return out, rows.Err()
}
