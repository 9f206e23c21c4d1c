import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Check, Crown, Sparkles } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import { usePlans, useSubscription, type BillingCycle, type Plan, type PlansResponse } from '../api'
import { PREMIUM_BENEFITS } from '../benefits'
import { checkoutFailure, goToCheckout, type CheckoutFailure } from '../checkout'
import { PortalButton } from '../components/PortalButton'
import { cpfDigits, formatCpf, isValidCpf } from '@/lib/cpf'
import { formatMoney, hasBillingSubscription, planName, statusInWords } from '../format'
import { trialEndDate, trialLabel } from '../trial'

type Method = 'card' | 'boleto' | 'pix'

const CYCLE_LABEL: Record<BillingCycle, string> = { monthly: 'Mensal', yearly: 'Anual' }
const METHOD_LABEL: Record<Method, string> = { card: 'Cartão de crédito', boleto: 'Boleto bancário', pix: 'Pix' }
export const CPF_INVALID = 'Informe um CPF válido.'

function PlanPrice({ plan, monthly }: { plan: Plan; monthly: Plan | undefined }) {
  if (plan.cycle === 'yearly') {
    return (
      <div>
        <p className="text-3xl font-bold">
          {formatMoney(plan.price_cents)}
          <span className="text-base font-medium text-muted-foreground"> /ano</span>
        </p>
        <p className="text-sm text-muted-foreground">equivale a {formatMoney(Math.round(plan.price_cents / 12))} por mês</p>
        {monthly && <p className="text-sm text-muted-foreground">em vez de {formatMoney(monthly.price_cents * 12)} no plano mensal</p>}
      </div>
    )
  }
  return (
    <p className="text-3xl font-bold">
      {formatMoney(plan.price_cents)}
      <span className="text-base font-medium text-muted-foreground"> /mês</span>
    </p>
  )
}

function CycleSwitch({ value, onChange, saving }: { value: BillingCycle; onChange: (c: BillingCycle) => void; saving: number }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">Cobrança</legend>
      <div className="inline-flex w-fit rounded-full border border-border bg-muted p-1">
        {(['monthly', 'yearly'] as const).map((cycle) => (
          <label
            key={cycle}
            className={cn(
              'inline-flex cursor-pointer items-center gap-2 rounded-full px-4 py-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
              value === cycle ? 'bg-card shadow-sm' : 'text-muted-foreground',
            )}
          >
            <input type="radio" name="billing_cycle" value={cycle} checked={value === cycle} onChange={() => onChange(cycle)} className="sr-only" />
            {CYCLE_LABEL[cycle]}
            {cycle === 'yearly' && saving > 0 && <Badge variant="success">Economize {saving}%</Badge>}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

function CheckoutForm({ plans }: { plans: PlansResponse }) {
  const [cycle, setCycle] = useState<BillingCycle>('monthly')
  const [method, setMethod] = useState<Method>('card')
  const [cpf, setCpf] = useState('')
  const [cpfError, setCpfError] = useState<string | undefined>()
  const [failure, setFailure] = useState<CheckoutFailure | null>(null)
  const [busy, setBusy] = useState(false)
  const methods: Method[] = ['card', ...(plans.boleto ? (['boleto'] as const) : []), ...(plans.pix ? (['pix'] as const) : [])]
  const plan = plans.plans.find((p) => p.cycle === cycle)
  const monthly = plans.plans.find((p) => p.cycle === 'monthly')
  const needsCpf = method === 'boleto'

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFailure(null)
    if (needsCpf && !isValidCpf(cpf)) {
      setCpfError(CPF_INVALID)
      return
    }
    setBusy(true)
    try {
      await goToCheckout({
        billing_cycle: cycle,
        ...(method !== 'card' ? { payment_method: method } : {}),
        ...(needsCpf ? { cpf: cpfDigits(cpf) } : {}),
      })
      // The browser is leaving for Stripe: the button stays busy.
    } catch (err) {
      setBusy(false)
      if (err instanceof ApiError && err.fields.cpf) setCpfError(err.fields.cpf)
      setFailure(checkoutFailure(err))
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="choose-plan" className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-5">
      <h2 id="choose-plan" className="text-lg font-semibold">
        Escolha o seu plano
      </h2>
      <CycleSwitch value={cycle} onChange={setCycle} saving={plans.yearly_saving_percent} />
      {plan ? (
        <div aria-live="polite">
          <p className="font-semibold">{planName(plan.cycle)}</p>
          <PlanPrice plan={plan} monthly={monthly} />
        </div>
      ) : (
        <p role="alert">Este plano não está disponível no momento.</p>
      )}
      {methods.length > 1 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Forma de pagamento</legend>
          {methods.map((m) => (
            <label key={m} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="payment_method"
                value={m}
                checked={method === m}
                onChange={() => {
                  setMethod(m)
                  setCpfError(undefined)
                }}
                className="h-4 w-4 accent-[var(--color-primary)]"
              />
              {METHOD_LABEL[m]}
            </label>
          ))}
        </fieldset>
      )}
      {needsCpf && (
        <Input
          label="CPF"
          name="cpf"
          inputMode="numeric"
          autoComplete="off"
          placeholder="000.000.000-00"
          value={cpf}
          onChange={(e) => {
            setCpf(formatCpf(e.target.value))
            setCpfError(undefined)
          }}
          error={cpfError}
          hint="O CPF sai impresso no boleto e nas notas. O boleto vence em 3 dias."
          required
        />
      )}
      {failure && (
        <div role="alert" className="flex flex-col gap-3 rounded-xl border border-destructive/40 bg-destructive/5 p-4 text-sm">
          <p className="font-medium">{failure.message}</p>
          {failure.subscribed && (
            <PortalButton variant="outline" size="sm" className="self-start">
              Gerenciar assinatura
            </PortalButton>
          )}
        </div>
      )}
      <Button type="submit" size="lg" loading={busy} disabled={!plan}>
        Assinar
      </Button>
      <p className="text-xs text-muted-foreground">Pagamento seguro pela Stripe. Cancele quando quiser pelo gerenciamento da assinatura.</p>
    </form>
  )
}

/**
 * /pricing: what Premium gives, the plans (monthly or yearly, with the yearly
 * saving), where the account stands, and 'Assinar' to Stripe's checkout in
 * this tab. A premium member sees their plan and the portal instead.
 */
export default function PricingPage() {
  usePageTitle('Planos')
  const sub = useSubscription().data
  const plans = usePlans()
  const premium = sub?.is_premium === true && !sub.trial_active
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 p-4">
      <h1 className="text-2xl font-bold">Planos</h1>
      {sub?.trial_active && sub.days_left > 0 && sub.trial_ends_at && (
        <section aria-labelledby="trial-status" className="rounded-2xl border border-violet-300 bg-violet-50 p-4 dark:border-violet-800 dark:bg-violet-950/40">
          <h2 id="trial-status" className="flex items-center gap-2 font-semibold">
            <Sparkles aria-hidden="true" className="h-5 w-5" />
            {trialLabel(sub.days_left)}
          </h2>
          <p className="mt-1 text-sm">Seu período de teste do Premium vai até {trialEndDate(sub.trial_ends_at)}. Assine agora e continue sem interrupção.</p>
        </section>
      )}
      {sub?.trial_expired && !sub.is_premium && <p className="font-medium">Seu período de teste do Premium terminou. Assine para continuar com tudo.</p>}
      {premium && sub && (
        <section aria-labelledby="current-plan" className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-5 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50">
          <h2 id="current-plan" className="flex items-center gap-2 text-lg font-semibold">
            <Crown aria-hidden="true" className="h-5 w-5" />
            Seu plano: {planName(sub.plan, sub.subscription_tier)}
          </h2>
          <p>Situação da assinatura: {statusInWords(sub).text}. Obrigado por fazer parte do VetClube!</p>
          <div className="flex flex-wrap gap-2">
            {hasBillingSubscription(sub) && <PortalButton>Gerenciar assinatura</PortalButton>}
            <Link to="/subscription" className="inline-flex h-10 items-center px-2 text-sm font-medium text-primary underline-offset-4 hover:underline">
              Ver detalhes da assinatura
            </Link>
          </div>
        </section>
      )}
      <section aria-labelledby="premium-benefits" className="rounded-2xl border border-border bg-card p-5">
        <h2 id="premium-benefits" className="font-semibold">
          O que o Premium inclui
        </h2>
        <ul className="mt-3 flex flex-col gap-2">
          {PREMIUM_BENEFITS.map((b) => (
            <li key={b} className="flex items-start gap-2">
              <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
              {b}
            </li>
          ))}
        </ul>
      </section>
      {!premium &&
        (plans.isPending ? (
          <Spinner label="Carregando planos..." />
        ) : plans.isError ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-border bg-card p-5">
            <p>Não foi possível carregar os planos.</p>
            <Button variant="outline" onClick={() => void plans.refetch()}>
              Tentar Novamente
            </Button>
          </div>
        ) : (
          <CheckoutForm plans={plans.data} />
        ))}
    </div>
  )
}
