import { useState } from 'react'
import { Copy, Gift, Mail, MessageCircle } from 'lucide-react'
import { usePageTitle } from '@/lib/usePageTitle'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { useReferralDashboard, type ReferralDashboard, type ReferralItem } from '../api'
import { emailUrl, formatDate, whatsappUrl } from '../share'

const numberFormat = new Intl.NumberFormat('pt-BR')

function months(n: number): string {
  return n === 1 ? '1 mês grátis' : `${n} meses grátis`
}

/** /indique-e-ganhe: the member's link, code, share buttons and QR, how it works, totals and referrals. */
export default function IndiquePage() {
  usePageTitle('Indique e Ganhe')
  const dash = useReferralDashboard()

  return (
    <div className="flex flex-col gap-6">
      <header className="flex items-center gap-3">
        <Gift aria-hidden="true" className="h-7 w-7 text-primary" />
        <h1 className="text-2xl font-bold tracking-tight">Indique e Ganhe</h1>
      </header>
      {dash.isPending && <Spinner />}
      {dash.isError && <p className="text-sm text-destructive">Erro ao carregar suas indicações.</p>}
      {dash.data && <Dashboard d={dash.data} />}
    </div>
  )
}

function Dashboard({ d }: { d: ReferralDashboard }) {
  const s = d.settings
  const reward =
    s.referrer_free_months > 0
      ? `${numberFormat.format(s.referrer_points)} VetCoins e ${months(s.referrer_free_months)}`
      : `${numberFormat.format(s.referrer_points)} VetCoins`
  return (
    <>
      <ShareCard link={d.link} code={d.code} />

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Como funciona</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="grid gap-3 sm:grid-cols-3" aria-label="Como funciona">
            <li className="rounded-xl bg-muted p-4">
              <p className="text-sm font-semibold">1. Compartilhe seu link</p>
              <p className="text-sm text-muted-foreground">Envie pelo WhatsApp, por e-mail ou mostre o QR code.</p>
            </li>
            <li className="rounded-xl bg-muted p-4">
              <p className="text-sm font-semibold">2. Seu amigo assina</p>
              <p className="text-sm text-muted-foreground">Ele cria a conta pelo seu link, confirma o e-mail e assina um plano pago.</p>
            </li>
            <li className="rounded-xl bg-muted p-4">
              <p className="text-sm font-semibold">3. Vocês dois ganham</p>
              <p className="text-sm text-muted-foreground">
                Após {s.hold_days} dias de carência, você ganha {reward}; seu amigo ganha {numberFormat.format(s.referee_points)} VetCoins.
              </p>
            </li>
          </ol>
          <p className="mt-3 text-xs text-muted-foreground">
            Até {s.cap_month} indicações recompensadas por mês e {s.cap_total} no total. O amigo tem {s.window_days} dias após o cadastro para
            assinar.
          </p>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Seus números</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Seus números">
            {(
              [
                ['Cliques', d.totals.cliques],
                ['Cadastros', d.totals.cadastros],
                ['Assinaturas', d.totals.assinaturas],
                ['Recompensas', d.totals.recompensas],
                ['VetCoins ganhos', d.totals.vetcoins_ganhos],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-xl bg-muted p-3">
                <dt className="text-xs text-muted-foreground">{label}</dt>
                <dd className="text-lg font-semibold">{numberFormat.format(value)}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Suas indicações</CardTitle>
        </CardHeader>
        <CardContent>
          {d.referrals.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nenhuma indicação ainda. Compartilhe seu link para começar!</p>
          ) : (
            <ul className="divide-y divide-border" aria-label="Suas indicações">
              {d.referrals.map((r) => (
                <ReferralRow key={r.id} r={r} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </>
  )
}

function ReferralRow({ r }: { r: ReferralItem }) {
  return (
    <li className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="referral-row">
      <div className="flex flex-col">
        <span className="font-medium">{r.name}</span>
        <span className="text-xs text-muted-foreground">Cadastro em {formatDate(r.created_at)}</span>
      </div>
      <div className="flex flex-col sm:items-end">
        <span className="text-sm font-semibold">{r.state_text}</span>
        {r.state === 'em_carencia' && r.reward_at && (
          <span className="text-xs text-muted-foreground">Recompensa em {formatDate(r.reward_at)}</span>
        )}
        {r.reason_text && <span className="text-xs text-muted-foreground">Motivo: {r.reason_text}</span>}
      </div>
    </li>
  )
}

function ShareCard({ link, code }: { link: string; code: string }) {
  const [copied, setCopied] = useState(false)
  async function copy() {
    try {
      await navigator.clipboard.writeText(link)
      setCopied(true)
      toast.success('Link copiado!')
    } catch {
      toast.error('Não foi possível copiar. Selecione o link e copie manualmente.')
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Seu link de indicação</CardTitle>
        <CardDescription>Convide colegas para o VetClube e ganhe recompensas quando eles assinarem.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <label className="flex flex-col gap-1 text-sm">
            <span className="text-muted-foreground">Link</span>
            <input
              readOnly
              value={link}
              aria-label="Seu link de indicação"
              onFocus={(e) => e.currentTarget.select()}
              className="h-10 w-full rounded-lg border border-border bg-card px-3 text-sm"
            />
          </label>
          <p className="text-sm">
            Código: <strong data-testid="referral-code">{code}</strong>
          </p>
          <div className="flex flex-wrap gap-2">
            <a className={buttonClasses('primary', 'md')} href={whatsappUrl(link)} target="_blank" rel="noopener noreferrer">
              <MessageCircle aria-hidden="true" className="h-4 w-4" /> WhatsApp
            </a>
            <Button variant="outline" onClick={copy}>
              <Copy aria-hidden="true" className="h-4 w-4" /> {copied ? 'Copiado!' : 'Copiar link'}
            </Button>
            <a className={buttonClasses('outline', 'md')} href={emailUrl(link)}>
              <Mail aria-hidden="true" className="h-4 w-4" /> E-mail
            </a>
          </div>
        </div>
        <img
          src="/api/referrals/me/qr.svg"
          alt="QR code do seu link de indicação"
          width={160}
          height={160}
          className="h-40 w-40 self-center rounded-lg border border-border bg-white p-1"
        />
      </CardContent>
    </Card>
  )
}
