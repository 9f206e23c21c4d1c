package seed

import (
	"context"
	"fmt"
	"strings"

	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/rewards"
)

// demoVetCoins is what the demo member and the premium member start with,
// so the shop on /pontos can be tried at once.
const demoVetCoins = 1200

// seedRewards fills the VetCoins shop once (a reward of each kind, with
// stock, partner voucher codes loaded) and gives the demo members a
// balance to spend.
func (a demo) seedRewards(ctx context.Context, ids map[string]string) error {
	if a.Rewards == nil {
		return nil
	}
	for _, email := range []string{"demo@vetclube.dev", premiumEmail} {
		if _, _, err := a.Engagement.Points.Award(ctx, ids[email], demoVetCoins, points.KindPlugin, "seed:demo-vetcoins:"+ids[email],
			map[string]any{"plugin": "demonstracao", "reason": "Saldo de demonstração"}); err != nil {
			return fmt.Errorf("seed VetCoins: %w", err)
		}
	}
	list, total, err := a.Rewards.AdminList(ctx, 0, 1)
	if err != nil || total > 0 || len(list) > 0 {
		return err
	}
	staff := ids["admin@vetclube.dev"]
	limit := func(n int) *int { return &n }
	catalogue := []rewards.Input{
		{Title: "Voucher 15% na VetLoja parceira", Kind: rewards.KindVoucher, Cost: 80, PerMemberLimit: limit(3), Position: 1,
			Description:  "Desconto de 15% em instrumentais e livros na loja parceira.",
			Instructions: "Acesse vetloja.com.br, adicione os produtos ao carrinho e informe o código no campo 'Cupom'. Válido por 90 dias."},
		{Title: "Moldura Ouro para certificados", Kind: rewards.KindCertificateFrame, Cost: 150, PerMemberLimit: limit(1), Position: 2,
			Config:       rewards.Config{Frame: "ouro"},
			Description:  "Seus certificados de cursos VetClube ganham a moldura dourada.",
			Instructions: "A moldura já está nos seus certificados: abra um certificado em Cursos › Meus certificados."},
		{Title: "Moldura Esmeralda (Premium)", Kind: rewards.KindCertificateFrame, Cost: 250, PerMemberLimit: limit(1), PremiumOnly: true, Position: 3,
			Config:       rewards.Config{Frame: "esmeralda"},
			Description:  "A moldura exclusiva dos assinantes Premium.",
			Instructions: "A moldura já está nos seus certificados: abra um certificado em Cursos › Meus certificados."},
		{Title: "10% de desconto na assinatura", Kind: rewards.KindCoupon, Cost: 600, Stock: limit(100), PerMemberLimit: limit(1), Position: 5,
			Config:       rewards.Config{PercentOff: 10, DurationMonths: 1},
			Description:  "Desconto de 10% na próxima fatura do Premium.",
			Instructions: "O desconto é aplicado automaticamente na próxima fatura da sua assinatura."},
	}
	var course string
	if err := a.Pool.QueryRow(ctx, `SELECT item_id::text FROM course_listings WHERE published ORDER BY published_at, item_id LIMIT 1`).Scan(&course); err == nil {
		catalogue = append(catalogue, rewards.Input{Title: "Curso liberado: escolha da equipe", Kind: rewards.KindCourse, Cost: 300,
			Stock: limit(50), PerMemberLimit: limit(1), Position: 4, Config: rewards.Config{CourseID: course},
			Description:  "Um curso VetClube liberado por completo, mesmo sem assinatura.",
			Instructions: "O curso já está em Cursos › Meus cursos, com todas as aulas abertas."})
	}
	for _, in := range catalogue {
		r, err := a.Rewards.Create(ctx, staff, in)
		if err != nil {
			return fmt.Errorf("seed reward %q: %w", in.Title, err)
		}
		if r.Kind == rewards.KindVoucher {
			var csv strings.Builder
			csv.WriteString("codigo\n")
			for i := 1; i <= 20; i++ {
				fmt.Fprintf(&csv, "VETLOJA-%04d\n", 1000+i*37)
			}
			if _, err := a.Rewards.UploadVouchers(ctx, staff, r.ID, csv.String()); err != nil {
				return fmt.Errorf("seed vouchers: %w", err)
			}
		}
	}
	return nil
}
