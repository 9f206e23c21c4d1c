import { Check, Sparkles } from 'lucide-react'
import { usePageTitle } from '@/lib/usePageTitle'
import { useSubscription } from '../api'
import { PREMIUM_BENEFITS } from '../benefits'
import { trialEndDate, trialLabel } from '../trial'

/**
 * /pricing: what Premium gives and where the account stands (trial days,
 * premium, or the trial over). Paid checkout comes with the subscriptions
 * work; until then the page says so instead of offering a button that fails.
 */
export default function PricingPage() {
  usePageTitle('Planos')
  const sub = useSubscription().data
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 p-4">
      <h1 className="text-2xl font-bold">Planos</h1>
      {sub?.trial_active && sub.days_left > 0 && sub.trial_ends_at && (
        <section aria-labelledby="trial-status" className="rounded-2xl border border-violet-300 bg-violet-50 p-4 dark:border-violet-800 dark:bg-violet-950/40">
          <h2 id="trial-status" className="flex items-center gap-2 font-semibold">
            <Sparkles aria-hidden="true" className="h-5 w-5" />
            {trialLabel(sub.days_left)}
          </h2>
          <p className="mt-1 text-sm">Seu período de teste do Premium vai até {trialEndDate(sub.trial_ends_at)}. Aproveite tudo o que ele inclui.</p>
        </section>
      )}
      {sub?.is_premium && !sub.trial_active && <p className="font-medium">Você é assinante Premium. Obrigado por fazer parte do VetClube!</p>}
      {sub?.trial_expired && !sub.is_premium && <p className="font-medium">Seu período de teste do Premium terminou.</p>}
      <section aria-labelledby="premium-benefits" className="rounded-2xl border border-border bg-card p-4">
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
      <p className="text-sm text-muted-foreground">A assinatura paga chega em breve: avisaremos você por aqui.</p>
    </div>
  )
}
