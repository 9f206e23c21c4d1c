import { CircleCheck } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/usePageTitle'

/** Stripe's success_url lands here; billing (a later issue) confirms the subscription itself. */
export default function SubscriptionSuccessPage() {
  usePageTitle('Assinatura')
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background px-6 text-center">
      <CircleCheck aria-hidden="true" className="h-16 w-16 text-primary" />
      <h1 className="text-2xl font-bold">Obrigado por assinar o VetClube!</h1>
      <p className="max-w-md text-muted-foreground">
        Estamos confirmando o seu pagamento. Assim que a confirmação chegar, os recursos premium ficam disponíveis na sua conta.
      </p>
      <Link to="/" className={buttonClasses('primary')}>
        Ir para o início
      </Link>
    </main>
  )
}
