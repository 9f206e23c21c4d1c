package rewards

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Input is a catalogue entry as staff write it.
type Input struct {
	Title          string `json:"title"`
	Description    string `json:"description"`
	ImageURL       string `json:"image_url"`
	Kind           string `json:"kind"`
	Cost           int    `json:"cost"`
	Stock          *int   `json:"stock"`
	PerMemberLimit *int   `json:"per_member_limit"`
	PremiumOnly    bool   `json:"premium_only"`
	Active         *bool  `json:"active"`
	Instructions   string `json:"instructions"`
	Config         Config `json:"config"`
	Position       int    `json:"position"`
}

// AdminReward is a catalogue entry with its voucher counts.
type AdminReward struct {
	Reward
	VouchersTotal int `json:"vouchers_total"`
	VouchersFree  int `json:"vouchers_free"`
	Redemptions   int `json:"redemptions"`
}

// validate checks in and trims its texts; kind is fixed on update.
func (s *Service) validate(ctx context.Context, in *Input) error {
	f := map[string]string{}
	in.Title = strings.TrimSpace(in.Title)
	in.Description = strings.TrimSpace(in.Description)
	in.Instructions = strings.TrimSpace(in.Instructions)
	in.ImageURL = strings.TrimSpace(in.ImageURL)
	if n := utf8.RuneCountInString(in.Title); n < 1 || n > 120 {
		f["title"] = "Informe um título de até 120 caracteres."
	}
	if utf8.RuneCountInString(in.Description) > 2000 {
		f["description"] = "A descrição pode ter até 2000 caracteres."
	}
	if utf8.RuneCountInString(in.Instructions) > 2000 {
		f["instructions"] = "As instruções podem ter até 2000 caracteres."
	}
	if in.ImageURL != "" && (len(in.ImageURL) > 500 || !(strings.HasPrefix(in.ImageURL, "/") && !strings.HasPrefix(in.ImageURL, "//") ||
		strings.HasPrefix(in.ImageURL, "https://")) || strings.ContainsAny(in.ImageURL, " \"'<>\\")) {
		f["image_url"] = "Use uma imagem da biblioteca de mídia (caminho /…) ou um endereço https://."
	}
	if in.Cost < 1 || in.Cost > 1_000_000 {
		f["cost"] = "O custo deve estar entre 1 e 1.000.000 VetCoins."
	}
	if in.Stock != nil && (*in.Stock < 0 || *in.Stock > 1_000_000) {
		f["stock"] = "O estoque deve estar entre 0 e 1.000.000 (vazio = ilimitado)."
	}
	if in.PerMemberLimit != nil && (*in.PerMemberLimit < 1 || *in.PerMemberLimit > 1000) {
		f["per_member_limit"] = "O limite por membro deve estar entre 1 e 1000 (vazio = sem limite)."
	}
	if in.Position < 0 || in.Position > 100000 {
		f["position"] = "Posição inválida."
	}
	switch in.Kind {
	case KindCoupon:
		in.Config = Config{PercentOff: in.Config.PercentOff, DurationMonths: in.Config.DurationMonths}
		// The discount applies to a paid subscription: paying members only.
		in.PremiumOnly = true
		if in.Config.PercentOff < 1 || in.Config.PercentOff > 100 {
			f["config.percent_off"] = "O desconto deve estar entre 1% e 100%."
		}
		if in.Config.DurationMonths < 0 || in.Config.DurationMonths > 36 {
			f["config.duration_months"] = "A duração deve estar entre 0 (uma fatura) e 36 meses."
		}
	case KindCourse:
		in.Config = Config{CourseID: strings.TrimSpace(in.Config.CourseID)}
		ok := false
		if validUUID(in.Config.CourseID) {
			if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM course_listings WHERE item_id = $1 AND published)`, in.Config.CourseID).Scan(&ok); err != nil {
				return fmt.Errorf("reward course: %w", err)
			}
		}
		if !ok {
			f["config.course_id"] = "Escolha um curso publicado."
		}
	case KindCertificateFrame:
		in.Config = Config{Frame: in.Config.Frame}
		if !slices.Contains(Frames, in.Config.Frame) {
			f["config.frame"] = "Escolha a moldura: ouro, prata ou esmeralda."
		}
	case KindVoucher:
		in.Config = Config{}
		// The stock of a voucher reward is its codes not yet given.
		in.Stock = nil
	default:
		f["kind"] = "Tipo inválido: coupon, course, certificate_frame ou voucher."
	}
	if len(f) > 0 {
		return core.Invalid("Verifique os campos da recompensa.", f)
	}
	return nil
}

const adminRewardColumns = rewardColumns + `,
	(SELECT count(*) FROM reward_vouchers v WHERE v.reward_id = rewards.id),
	(SELECT count(*) FROM reward_vouchers v WHERE v.reward_id = rewards.id AND v.redemption_id IS NULL),
	(SELECT count(*) FROM reward_redemptions d WHERE d.reward_id = rewards.id AND d.status <> 'refunded')`

func scanAdminReward(row pgx.Row) (AdminReward, error) {
	var a AdminReward
	var cfg []byte
	err := row.Scan(&a.ID, &a.Title, &a.Description, &a.ImageURL, &a.Kind, &a.Cost, &a.Stock, &a.PerMemberLimit,
		&a.PremiumOnly, &a.Active, &a.Instructions, &cfg, &a.Position, &a.CreatedAt, &a.UpdatedAt,
		&a.VouchersTotal, &a.VouchersFree, &a.Redemptions)
	if err == nil {
		_ = json.Unmarshal(cfg, &a.Config)
	}
	return a, err
}

// AdminGet returns one catalogue entry.
func (s *Service) AdminGet(ctx context.Context, id string) (AdminReward, error) {
	if !validUUID(id) {
		return AdminReward{}, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	a, err := scanAdminReward(s.pool.QueryRow(ctx, `SELECT `+adminRewardColumns+` FROM rewards WHERE id = $1`, id))
	if postgres.IsNoRows(err) {
		return a, core.Errorf(core.ENOTFOUND, MsgNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("admin reward: %w", err)
	}
	return a, nil
}

// AdminList lists the whole catalogue (active or not).
func (s *Service) AdminList(ctx context.Context, offset, limit int) ([]AdminReward, int, error) {
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM rewards`).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("admin rewards: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+adminRewardColumns+` FROM rewards ORDER BY position, created_at, id OFFSET $1 LIMIT $2`, offset, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("admin rewards: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AdminReward, error) { return scanAdminReward(r) })
	if out == nil {
		out = []AdminReward{}
	}
	return out, total, err
}

// Create adds a catalogue entry.
func (s *Service) Create(ctx context.Context, actorID string, in Input) (AdminReward, error) {
	if err := s.validate(ctx, &in); err != nil {
		return AdminReward{}, err
	}
	active := in.Active == nil || *in.Active
	stock := in.Stock
	if in.Kind == KindVoucher {
		zero := 0
		stock = &zero
	}
	cfg, _ := json.Marshal(in.Config)
	var id string
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO rewards (title, description, image_url, kind, cost, stock, per_member_limit, premium_only,
			active, instructions, config, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
			in.Title, in.Description, in.ImageURL, in.Kind, in.Cost, stock, in.PerMemberLimit, in.PremiumOnly, active,
			in.Instructions, cfg, in.Position).Scan(&id); err != nil {
			return err
		}
		return auditTx(ctx, tx, actorID, "create", id, id, map[string]any{"title": in.Title, "kind": in.Kind, "cost": in.Cost})
	})
	if err != nil {
		return AdminReward{}, fmt.Errorf("create reward: %w", err)
	}
	return s.AdminGet(ctx, id)
}

// Update changes a catalogue entry; its kind stays. A voucher reward's
// stock follows its codes and is not edited here.
func (s *Service) Update(ctx context.Context, actorID, id string, in Input) (AdminReward, error) {
	cur, err := s.AdminGet(ctx, id)
	if err != nil {
		return AdminReward{}, err
	}
	in.Kind = cur.Kind
	if err := s.validate(ctx, &in); err != nil {
		return AdminReward{}, err
	}
	active := cur.Active
	if in.Active != nil {
		active = *in.Active
	}
	cfg, _ := json.Marshal(in.Config)
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		stockSQL := `$6::integer`
		if cur.Kind == KindVoucher {
			stockSQL = `stock`
		}
		if _, err := tx.Exec(ctx, `UPDATE rewards SET title = $2, description = $3, image_url = $4, cost = $5, stock = `+stockSQL+`,
			per_member_limit = $7, premium_only = $8, active = $9, instructions = $10, config = $11, position = $12, updated_at = now()
			WHERE id = $1`, id, in.Title, in.Description, in.ImageURL, in.Cost, in.Stock, in.PerMemberLimit, in.PremiumOnly, active,
			in.Instructions, cfg, in.Position); err != nil {
			return err
		}
		return auditTx(ctx, tx, actorID, "update", id, id, map[string]any{"title": in.Title, "cost": in.Cost, "stock": in.Stock,
			"active": active, "premium_only": in.PremiumOnly})
	})
	if err != nil {
		return AdminReward{}, fmt.Errorf("update reward: %w", err)
	}
	return s.AdminGet(ctx, id)
}

// MaxVoucherUpload bounds one CSV upload.
const (
	MaxVoucherUpload      = 10000
	MaxVoucherUploadBytes = 1 << 20
)

// VoucherUpload is what an upload added.
type VoucherUpload struct {
	Added  int         `json:"added"`
	Reward AdminReward `json:"reward"`
}

// UploadVouchers loads partner codes from CSV (one code per line, in the
// first column; an optional header "codigo" or "code"). The whole file is
// refused, with line numbers, when a code is empty, malformed, repeated in
// the file or already loaded; else every code is added and the reward's
// stock grows by as many.
func (s *Service) UploadVouchers(ctx context.Context, actorID, rewardID string, data string) (VoucherUpload, error) {
	cur, err := s.AdminGet(ctx, rewardID)
	if err != nil {
		return VoucherUpload{}, err
	}
	if cur.Kind != KindVoucher {
		return VoucherUpload{}, core.Invalid("Só recompensas do tipo voucher recebem códigos.", map[string]string{"kind": "Não é voucher."})
	}
	if len(data) > MaxVoucherUploadBytes {
		return VoucherUpload{}, core.Errorf(core.ETOOLARGE, "O arquivo CSV pode ter até 1 MB.")
	}
	data = strings.TrimPrefix(data, "\ufeff")
	r := csv.NewReader(strings.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.Comma = ','
	if strings.Count(strings.SplitN(data, "\n", 2)[0], ";") > 0 && !strings.Contains(strings.SplitN(data, "\n", 2)[0], ",") {
		r.Comma = ';'
	}
	var problems []string
	fields := map[string]string{}
	bad := func(line int, msg string) {
		key := "linha " + strconv.Itoa(line)
		if _, dup := fields[key]; dup {
			return
		}
		fields[key] = msg
		problems = append(problems, fmt.Sprintf("Linha %d: %s", line, msg))
	}
	seen := map[string]int{}
	var codes []string
	var lines []int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			bad(line, "linha mal formada no CSV.")
			break
		}
		code := strings.TrimSpace(rec[0])
		if len(codes) == 0 && len(seen) == 0 && len(problems) == 0 && (strings.EqualFold(code, "codigo") || strings.EqualFold(code, "código") || strings.EqualFold(code, "code")) {
			continue
		}
		if code == "" && len(rec) == 1 {
			continue // a blank line
		}
		switch {
		case code == "":
			bad(line, "código vazio.")
			continue
		case utf8.RuneCountInString(code) > 100:
			bad(line, "código com mais de 100 caracteres.")
			continue
		case strings.IndexFunc(code, func(c rune) bool { return !unicode.IsPrint(c) || unicode.IsSpace(c) }) >= 0:
			bad(line, "código com espaços ou caracteres inválidos.")
			continue
		}
		if first, ok := seen[code]; ok {
			bad(line, fmt.Sprintf("código %q repetido (já na linha %d).", code, first))
			continue
		}
		seen[code] = line
		codes = append(codes, code)
		lines = append(lines, line)
	}
	if len(codes) > MaxVoucherUpload {
		return VoucherUpload{}, core.Invalid(fmt.Sprintf("Envie até %d códigos por arquivo.", MaxVoucherUpload), map[string]string{"csv": "Arquivo grande demais."})
	}
	if len(codes) == 0 && len(problems) == 0 {
		return VoucherUpload{}, core.Invalid("O arquivo não tem nenhum código.", map[string]string{"csv": "Nenhum código."})
	}
	var added int
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if len(codes) > 0 {
			rows, err := tx.Query(ctx, `SELECT code FROM reward_vouchers WHERE reward_id = $1 AND code = ANY($2)`, rewardID, codes)
			if err != nil {
				return err
			}
			existing, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				return err
			}
			for _, c := range existing {
				bad(seen[c], fmt.Sprintf("código %q já carregado nesta recompensa.", c))
			}
		}
		if len(problems) > 0 {
			slices.SortFunc(problems, func(a, b string) int { return lineOf(a) - lineOf(b) })
			return core.Invalid(fmt.Sprintf("Nenhum código foi carregado: %d problema(s). %s", len(problems), strings.Join(problems, " ")), fields)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO reward_vouchers (reward_id, code) SELECT $1, unnest($2::text[])`, rewardID, codes)
		if err != nil {
			return err
		}
		added = int(tag.RowsAffected())
		if _, err := tx.Exec(ctx, `UPDATE rewards SET stock = coalesce(stock, 0) + $2, updated_at = now() WHERE id = $1`, rewardID, added); err != nil {
			return err
		}
		return auditTx(ctx, tx, actorID, "vouchers_upload", rewardID, rewardID, map[string]any{"added": added, "lines": len(lines)})
	})
	if err != nil {
		if core.ErrorCode(err) != core.EINTERNAL {
			return VoucherUpload{}, err
		}
		return VoucherUpload{}, fmt.Errorf("upload vouchers: %w", err)
	}
	a, err := s.AdminGet(ctx, rewardID)
	return VoucherUpload{Added: added, Reward: a}, err
}

func lineOf(problem string) int {
	var n int
	_, _ = fmt.Sscanf(problem, "Linha %d:", &n)
	return n
}

// RedemptionFilter narrows the backoffice list.
type RedemptionFilter struct {
	RewardID string `json:"reward_id"`
	Status   string `json:"status"`
	Q        string `json:"q"`
}

// AdminRedemptions lists redemptions, newest first, with the member's e-mail.
func (s *Service) AdminRedemptions(ctx context.Context, f RedemptionFilter, offset, limit int) ([]Redemption, int, error) {
	where := []string{"true"}
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", "$"+strconv.Itoa(len(args))))
	}
	if f.RewardID != "" {
		if !validUUID(f.RewardID) {
			return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"reward_id": "Identificador inválido."})
		}
		add("r.reward_id = ?", f.RewardID)
	}
	if f.Status != "" {
		if !slices.Contains([]string{StatusPending, StatusDelivered, StatusRefunded}, f.Status) {
			return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"status": "Use pending, delivered ou refunded."})
		}
		add("r.status = ?", f.Status)
	}
	if q := strings.TrimSpace(f.Q); q != "" {
		if utf8.RuneCountInString(q) > 200 {
			return nil, 0, core.Invalid("Filtro inválido.", map[string]string{"q": "Busca longa demais."})
		}
		add("(u.email ILIKE '%' || ? || '%' OR r.title ILIKE '%' || ? || '%')", q)
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM reward_redemptions r LEFT JOIN users u ON u.id = r.user_id WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("admin redemptions: %w", err)
	}
	args = append(args, offset, limit)
	rows, err := s.pool.Query(ctx, `SELECT `+redemptionColumns+`, coalesce(u.email, '') FROM reward_redemptions r LEFT JOIN users u ON u.id = r.user_id
		WHERE `+cond+` ORDER BY r.created_at DESC, r.id OFFSET $`+strconv.Itoa(len(args)-1)+` LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("admin redemptions: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Redemption, error) {
		var email string
		d, err := scanRedemption(row, &email)
		d.Email = email
		return d, err
	})
	if out == nil {
		out = []Redemption{}
	}
	return out, total, err
}

// Refund is a staff refund of a redemption, with its reason, audited.
func (s *Service) Refund(ctx context.Context, actorID, redemptionID, reason string) (Redemption, error) {
	reason = strings.TrimSpace(reason)
	if n := utf8.RuneCountInString(reason); n < 3 || n > 500 {
		return Redemption{}, core.Invalid("Informe o motivo do estorno (3 a 500 caracteres).", map[string]string{"reason": "Obrigatório."})
	}
	if actorID == "" {
		return Redemption{}, core.Errorf(core.EFORBIDDEN, "Apenas a equipe pode estornar resgates.")
	}
	return s.refund(ctx, redemptionID, actorID, reason)
}
