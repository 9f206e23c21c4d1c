package auth

import (
	"context"
	"fmt"
	"html/template"
	"strings"

	"github.com/vetclube/vetclube/core/mail"
)

var emailTemplate = template.Must(template.New("email").Parse(`<!doctype html>
<html lang="pt-BR"><body style="font-family:Arial,sans-serif;color:#222">
<p>Olá{{if .Name}}, {{.Name}}{{end}}!</p>
<p>{{.Intro}}</p>
<p><a href="{{.Link}}" style="background:#0f766e;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">{{.Action}}</a></p>
<p>Se o botão não funcionar, copie e cole este endereço no navegador:<br>{{.Link}}</p>
<p>{{.Footer}}</p>
<p>Equipe VetClube</p>
</body></html>`))

type emailContent struct {
	Name, Intro, Action, Link, Footer string
}

func (s *Service) send(ctx context.Context, to, subject string, c emailContent) {
	var html strings.Builder
	if err := emailTemplate.Execute(&html, c); err != nil {
		s.log.ErrorContext(ctx, "render email", "err", err)
		return
	}
	greeting := "Olá!"
	if c.Name != "" {
		greeting = "Olá, " + c.Name + "!"
	}
	text := greeting + "\n\n" + c.Intro + "\n\n" + c.Action + ": " + c.Link + "\n\n" + c.Footer + "\n\nEquipe VetClube\n"
	// A failed send does not undo the account or token: the user can ask
	// again (resend confirmation, forgot password).
	if err := s.mailer.Send(ctx, mail.Message{To: to, Subject: subject, Text: text, HTML: html.String()}); err != nil {
		s.log.ErrorContext(ctx, "send email", "subject", subject, "err", err)
	}
}

// sendConfirmation mails the confirmation link; a premium one (from
// /register-premium) signs in and continues to the monthly checkout.
func (s *Service) sendConfirmation(ctx context.Context, to, name, token string, premium bool) {
	intro := "Falta pouco para você entrar no VetClube. Confirme seu email pelo link abaixo."
	offer := ""
	if s.opts.TrialOffer != nil {
		offer = s.opts.TrialOffer()
	}
	switch days := s.opts.TrialDays; {
	case days > 0 && offer != "":
		intro += " " + offer
	case days > 0:
		intro += fmt.Sprintf(" Ao confirmar, você ganha %d %s de teste grátis do Premium.", days, plural(days, "dia", "dias"))
	}
	action, link := "Confirmar email", s.link("/confirmar-email", token)
	if premium {
		intro = "Falta pouco para você entrar no VetClube Premium. Confirme seu email pelo link abaixo: você entra na sua conta e segue direto para o pagamento da assinatura mensal."
		action, link = "Confirmar e assinar", link+"&continuar=assinatura"
	}
	s.send(ctx, to, "Confirme seu email no VetClube", emailContent{
		Name:   name,
		Intro:  intro,
		Action: action,
		Link:   link,
		Footer: "O link vale por 24 horas e pode ser usado uma única vez. Se você não criou uma conta, ignore este email.",
	})
}

func (s *Service) sendReset(ctx context.Context, to, name, token string) {
	s.send(ctx, to, "Redefinição de senha do VetClube", emailContent{
		Name:   name,
		Intro:  "Recebemos um pedido para redefinir a senha da sua conta.",
		Action: "Redefinir senha",
		Link:   s.link("/redefinir-senha", token),
		Footer: "O link vale por 1 hora e pode ser usado uma única vez. Se você não pediu a redefinição, ignore este email: sua senha continua a mesma.",
	})
}

// sendAlreadyRegistered tells an address's owner that someone tried to sign
// up with it: the sign-up answer cannot say so without revealing the account
// to whoever asked, but the owner may simply have forgotten.
func (s *Service) sendAlreadyRegistered(ctx context.Context, to, name string) {
	s.send(ctx, to, "Tentativa de cadastro no VetClube com o seu email", emailContent{
		Name:   name,
		Intro:  "Alguém tentou criar uma conta no VetClube com este email, mas você já tem uma conta. Se foi você, entre com o seu email e senha.",
		Action: "Entrar no VetClube",
		Link:   s.opts.PublicURL + "/login",
		Footer: "Se não foi você, ignore este email: nenhuma conta nova foi criada e sua senha continua a mesma. Esqueceu a senha? Redefina em: " + s.opts.PublicURL + "/forgot-password",
	})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (s *Service) sendLoginCode(ctx context.Context, to, name, code, token string) {
	s.send(ctx, to, "Seu código de acesso ao VetClube: "+code, emailContent{
		Name:   name,
		Intro:  "Seu código de acesso é " + code + ". Digite-o na tela de login ou entre direto pelo link abaixo.",
		Action: "Entrar no VetClube",
		Link:   s.link("/login/codigo", token),
		Footer: "O código e o link valem por 10 minutos e podem ser usados uma única vez. Se você não pediu um código, ignore este email: sua conta continua protegida.",
	})
}

// sendNewAccess tells the member of a sign-in from a device none of their
// sessions came from, with the way to review (and end) sessions.
func (s *Service) sendNewAccess(ctx context.Context, userID, userAgent string) {
	device := CleanUserAgent(userAgent)
	if r := []rune(device); len(r) > 120 {
		device = string(r[:120]) + "…"
	}
	if device == "" {
		device = "dispositivo desconhecido"
	}
	s.sendSecurityNotice(ctx, userID, "Novo acesso à sua conta",
		"Sua conta do VetClube foi acessada em %s (horário de Brasília) de um dispositivo novo: "+device+".")
}

// sendSecurityNotice e-mails the member about a change to how they sign in
// (a new device, a factor turned on or off, a new password), with the link
// to review sessions. intro's %s is the time in São Paulo.
func (s *Service) sendSecurityNotice(ctx context.Context, userID, subject, intro string) {
	var email string
	var meta map[string]string
	if err := s.pool.QueryRow(ctx, `SELECT email, metadata FROM users WHERE id = $1`, userID).Scan(&email, &meta); err != nil {
		s.log.WarnContext(ctx, "security notice", "err", err)
		return
	}
	when := s.now().In(saoPaulo).Format("02/01/2006 às 15:04")
	s.send(ctx, email, subject, emailContent{
		Name:   firstNameOf(meta),
		Intro:  strings.Replace(intro, "%s", when, 1),
		Action: "Revisar sessões",
		Link:   s.opts.PublicURL + "/profile#seguranca",
		Footer: "Se foi você, nada a fazer. Se não reconhece esta ação, encerre as outras sessões, altere sua senha e ative a verificação em duas etapas.",
	})
}
