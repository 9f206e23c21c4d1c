package billing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stripe/stripe-go/v82"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/postgres"
)

// Messages (pt-BR).
const (
	MsgAlreadySubscribed = "Você já tem uma assinatura ativa. Gerencie-a pelo portal de assinatura."
	MsgStripeDown        = "O serviço de pagamentos não respondeu. Tente novamente em instantes."
	MsgNoCustomer        = "Você ainda não tem uma assinatura. Escolha um plano em Planos."
	msgBadCycle          = "Escolha o plano mensal ou anual."
)

// CheckoutRequest is POST /api/billing/checkout's body.
type CheckoutRequest struct {
	BillingCycle  string `json:"billing_cycle"`
	PaymentMethod string `json:"payment_method,omitempty"`
	CPF           string `json:"cpf,omitempty"`
}

// ConflictError is the 409 of a member who is already subscribed; it
// carries the portal address.
type ConflictError struct {
	PortalURL string
}

func (e *ConflictError) Error() string { return "already subscribed" }

// stripeDown wraps a Stripe failure as 503 (the message never leaks the cause).
func stripeDown(err error) error {
	return &core.Error{Code: core.EUNAVAILABLE, Message: MsgStripeDown, Err: err}
}

func (s *Service) priceOf(cycle string) string {
	if cycle == "yearly" {
		return s.cfg.PriceYearly
	}
	return s.cfg.PriceMonthly
}

// member is what Stripe's customer is created with.
type member struct {
	email, name string
}

func (s *Service) memberOf(ctx context.Context, q querier, userID string) (member, error) {
	var m member
	err := q.QueryRow(ctx, `SELECT u.email, coalesce(btrim(p.first_name || ' ' || p.last_name), '')
		FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = $1`, userID).Scan(&m.email, &m.name)
	if err != nil {
		return m, fmt.Errorf("read member: %w", err)
	}
	return m, nil
}

// customerOf returns the member's Stripe customer id ("" when none yet).
func customerOf(ctx context.Context, q querier, userID string) (string, *string, error) {
	var id string
	var cpf *string
	err := q.QueryRow(ctx, `SELECT customer_id, cpf FROM billing_customers WHERE user_id = $1`, userID).Scan(&id, &cpf)
	if postgres.IsNoRows(err) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("read customer: %w", err)
	}
	return id, cpf, nil
}

// ensureCustomer creates the member's Stripe customer (metadata.user_id)
// and stores it, once; a CPF given is attached as a br_cpf tax id. The
// caller holds the member's lock.
func (s *Service) ensureCustomer(ctx context.Context, tx pgx.Tx, userID, cpf string) (string, error) {
	id, stored, err := customerOf(ctx, tx, userID)
	if err != nil {
		return "", err
	}
	if id == "" {
		m, err := s.memberOf(ctx, tx, userID)
		if err != nil {
			return "", err
		}
		params := &stripe.CustomerCreateParams{Email: stripe.String(m.email), PreferredLocales: []*string{stripe.String("pt-BR")}}
		if m.name != "" {
			params.Name = stripe.String(m.name)
		}
		params.AddMetadata("user_id", userID)
		// One customer per member even when a previous attempt's
		// response was lost: Stripe answers the same customer again.
		params.SetIdempotencyKey("customer:" + userID)
		c, err := s.sc.V1Customers.Create(ctx, params)
		if err != nil {
			return "", stripeDown(err)
		}
		id = c.ID
		// Stored in its own statement before any checkout: the row is the
		// member's customer from now on.
		if _, err := tx.Exec(ctx, `INSERT INTO billing_customers (user_id, customer_id) VALUES ($1, $2)
			ON CONFLICT (user_id) DO NOTHING`, userID, id); err != nil {
			return "", fmt.Errorf("store customer: %w", err)
		}
	}
	if cpf != "" && (stored == nil || *stored != cpf) {
		params := &stripe.TaxIDCreateParams{Customer: stripe.String(id), Type: stripe.String("br_cpf"), Value: stripe.String(FormatCPF(cpf))}
		params.SetIdempotencyKey("taxid:" + id + ":" + cpf)
		t, err := s.sc.V1TaxIDs.Create(ctx, params)
		if err != nil {
			var se *stripe.Error
			if errors.As(err, &se) && se.HTTPStatusCode == 400 {
				return "", core.Invalid("CPF recusado pelo serviço de pagamentos.", map[string]string{"cpf": "Confira o CPF."})
			}
			return "", stripeDown(err)
		}
		if _, err := tx.Exec(ctx, `UPDATE billing_customers SET cpf = $2, tax_id = $3 WHERE user_id = $1`, userID, cpf, t.ID); err != nil {
			return "", fmt.Errorf("store cpf: %w", err)
		}
	}
	return id, nil
}

// EnsureCustomer creates and stores the member's Stripe customer (tests,
// the seed and the portal use it); it returns the customer id.
func (s *Service) EnsureCustomer(ctx context.Context, userID, cpf string) (string, error) {
	var id string
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockMember(ctx, tx, userID); err != nil {
			return err
		}
		var err error
		id, err = s.ensureCustomer(ctx, tx, userID, cpf)
		return err
	})
	return id, err
}

// Checkout starts a subscription: a Checkout Session (card, and Pix behind
// its flag) or, for boleto, a subscription collected by invoice whose
// hosted page is the address. A member already active, trialing or past
// due gets a ConflictError with the portal address; while the member has
// an open attempt for the same plan and method, its address is answered
// again, so concurrent clicks make one session.
func (s *Service) Checkout(ctx context.Context, userID string, req CheckoutRequest) (string, error) {
	if req.BillingCycle != "monthly" && req.BillingCycle != "yearly" {
		return "", core.Invalid(msgBadCycle, map[string]string{"billing_cycle": msgBadCycle})
	}
	method := req.PaymentMethod
	if method == "" {
		method = "card"
	}
	if method != "card" && method != "boleto" {
		return "", core.Invalid("Forma de pagamento inválida.", map[string]string{"payment_method": "Use card ou boleto."})
	}
	if method == "boleto" && !s.cfg.BoletoEnabled {
		return "", core.Invalid("O pagamento por boleto não está disponível.", map[string]string{"payment_method": "Boleto indisponível."})
	}
	cpf := ""
	if strings.TrimSpace(req.CPF) != "" {
		var ok bool
		if cpf, ok = NormalizeCPF(req.CPF); !ok {
			return "", core.Invalid("CPF inválido.", map[string]string{"cpf": "Confira os números do CPF."})
		}
	}
	if method == "boleto" && cpf == "" {
		if _, stored, err := customerOf(ctx, s.pool, userID); err != nil {
			return "", err
		} else if stored == nil {
			return "", core.Invalid("Informe o CPF para pagar por boleto.", map[string]string{"cpf": "O boleto precisa do CPF."})
		}
	}
	price := s.priceOf(req.BillingCycle)
	if price == "" {
		return "", core.Errorf(core.EUNAVAILABLE, "Este plano não está configurado.")
	}
	// The customer is created and stored in its own transaction before
	// any checkout: a failed session never leaves a Stripe customer the
	// database does not know.
	existing, _, err := customerOf(ctx, s.pool, userID)
	if err != nil {
		return "", err
	}
	if _, err := s.EnsureCustomer(ctx, userID, cpf); err != nil {
		return "", err
	}
	var url string
	var conflict bool
	err = postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if err := lockMember(ctx, tx, userID); err != nil {
			return err
		}
		x, err := getRow(ctx, tx, userID)
		if err != nil {
			return err
		}
		if x == nil || !slices.Contains(subscribedStatuses, x.Status) {
			// A lost webhook must not let a subscriber pay twice: a member
			// whose customer existed before this call is read from Stripe
			// first (a customer made just now has no subscription).
			if known, _, err := customerOf(ctx, tx, userID); err != nil {
				return err
			} else if known != "" && existing != "" {
				st, _, err := s.syncTx(ctx, tx, userID, known)
				if err != nil {
					return stripeDown(err)
				}
				x = &row{Status: st.StripeStatus}
			}
		}
		if x != nil && slices.Contains(subscribedStatuses, x.Status) {
			conflict = true
			return nil
		}
		// An open attempt for the same plan is answered again.
		err = tx.QueryRow(ctx, `SELECT url FROM billing_checkouts WHERE user_id = $1 AND cycle = $2 AND method = $3
			AND expires_at > $4 AND url <> '' ORDER BY created_at DESC LIMIT 1`, userID, req.BillingCycle, method, s.now()).Scan(&url)
		if err == nil {
			return nil
		}
		if !postgres.IsNoRows(err) {
			return fmt.Errorf("read checkout attempts: %w", err)
		}
		customerID, _, err := customerOf(ctx, tx, userID)
		if err != nil {
			return err
		}
		var attempt string
		expires := s.now().Add(23 * time.Hour)
		if err := tx.QueryRow(ctx, `INSERT INTO billing_checkouts (user_id, cycle, method, expires_at) VALUES ($1, $2, $3, $4) RETURNING id`,
			userID, req.BillingCycle, method, expires).Scan(&attempt); err != nil {
			return fmt.Errorf("record checkout attempt: %w", err)
		}
		var sessionID string
		if method == "boleto" {
			sessionID, url, err = s.boletoSubscription(ctx, userID, customerID, price, req.BillingCycle, attempt)
		} else {
			sessionID, url, err = s.checkoutSession(ctx, userID, customerID, price, req.BillingCycle, attempt)
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE billing_checkouts SET session_id = $2, url = $3 WHERE id = $1`, attempt, sessionID, url)
		return err
	})
	if err != nil {
		return "", err
	}
	if conflict {
		portal, err := s.Portal(ctx, userID)
		if err != nil {
			return "", err
		}
		return "", &ConflictError{PortalURL: portal}
	}
	return url, nil
}

func (s *Service) appURL(path string) string { return strings.TrimRight(s.cfg.PublicURL, "/") + path }

func (s *Service) checkoutSession(ctx context.Context, userID, customerID, price, cycle, attempt string) (string, string, error) {
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModeSubscription)),
		Customer:          stripe.String(customerID),
		ClientReferenceID: stripe.String(userID),
		Locale:            stripe.String("pt-BR"),
		SuccessURL:        stripe.String(s.appURL("/subscription-success?session_id={CHECKOUT_SESSION_ID}")),
		CancelURL:         stripe.String(s.appURL("/pricing")),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{{Price: stripe.String(price), Quantity: stripe.Int64(1)}},
		SubscriptionData:  &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: map[string]string{"user_id": userID, "billing_cycle": cycle}},
	}
	params.PaymentMethodTypes = []*string{stripe.String("card")}
	if s.cfg.PixEnabled {
		params.PaymentMethodTypes = append(params.PaymentMethodTypes, stripe.String("pix"))
	}
	params.AddMetadata("user_id", userID)
	params.AddMetadata("billing_cycle", cycle)
	params.SetIdempotencyKey("checkout:" + attempt)
	cs, err := s.sc.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return "", "", stripeDown(err)
	}
	return cs.ID, cs.URL, nil
}

// boletoSubscription creates a subscription collected by invoice (boleto,
// due in 3 days), incomplete until its first invoice is paid; the address
// is the invoice's hosted page.
func (s *Service) boletoSubscription(ctx context.Context, userID, customerID, price, cycle, attempt string) (string, string, error) {
	params := &stripe.SubscriptionCreateParams{
		Customer:         stripe.String(customerID),
		Items:            []*stripe.SubscriptionCreateItemParams{{Price: stripe.String(price)}},
		CollectionMethod: stripe.String(string(stripe.SubscriptionCollectionMethodSendInvoice)),
		DaysUntilDue:     stripe.Int64(3),
		PaymentBehavior:  stripe.String("default_incomplete"),
		PaymentSettings: &stripe.SubscriptionCreatePaymentSettingsParams{
			PaymentMethodTypes: []*string{stripe.String("boleto")},
		},
	}
	params.AddMetadata("user_id", userID)
	params.AddMetadata("billing_cycle", cycle)
	params.AddExpand("latest_invoice")
	params.SetIdempotencyKey("boleto:" + attempt)
	sub, err := s.sc.V1Subscriptions.Create(ctx, params)
	if err != nil {
		return "", "", stripeDown(err)
	}
	inv := sub.LatestInvoice
	if inv == nil {
		return "", "", stripeDown(errors.New("boleto subscription without an invoice"))
	}
	if inv.Status == stripe.InvoiceStatusDraft || inv.HostedInvoiceURL == "" {
		fp := &stripe.InvoiceFinalizeInvoiceParams{}
		fp.SetIdempotencyKey("finalize:" + attempt)
		if inv, err = s.sc.V1Invoices.FinalizeInvoice(ctx, inv.ID, fp); err != nil {
			return "", "", stripeDown(err)
		}
	}
	return sub.ID, inv.HostedInvoiceURL, nil
}

// Portal opens the customer portal (card, plan, cancel, invoices) for a
// member who has a customer.
func (s *Service) Portal(ctx context.Context, userID string) (string, error) {
	id, _, err := customerOf(ctx, s.pool, userID)
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", core.Errorf(core.ENOTFOUND, MsgNoCustomer)
	}
	params := &stripe.BillingPortalSessionCreateParams{
		Customer:  stripe.String(id),
		ReturnURL: stripe.String(s.appURL("/subscription")),
		Locale:    stripe.String("pt-BR"),
	}
	ps, err := s.sc.V1BillingPortalSessions.Create(ctx, params)
	if err != nil {
		return "", stripeDown(err)
	}
	return ps.URL, nil
}

// priceInfo is a plan's price as Stripe has it.
type priceInfo struct {
	ID       string
	Amount   int64
	Interval string
	Currency string
}

// pricesTTL is how long the plans' prices are kept.
const pricesTTL = 10 * time.Minute

func (s *Service) price(ctx context.Context, id string) (priceInfo, error) {
	s.pricesMu.Lock()
	defer s.pricesMu.Unlock()
	if p, ok := s.prices[id]; ok && s.now().Sub(s.pricesAt) < pricesTTL {
		return p, nil
	}
	if s.prices == nil || s.now().Sub(s.pricesAt) >= pricesTTL {
		s.prices, s.pricesAt = map[string]priceInfo{}, s.now()
	}
	p, err := s.sc.V1Prices.Retrieve(ctx, id, nil)
	if err != nil {
		return priceInfo{}, stripeDown(err)
	}
	pi := priceInfo{ID: p.ID, Amount: p.UnitAmount, Currency: strings.ToUpper(string(p.Currency))}
	if p.Recurring != nil {
		pi.Interval = string(p.Recurring.Interval)
	}
	s.prices[id] = pi
	return pi, nil
}
