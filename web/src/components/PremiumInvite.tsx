import { Link } from 'react-router'
import { Crown } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'

// The invitation's own texts; the reason under the title (a lesson, a video) comes from the caller.
const messages = {
  premiumTitle: 'Conteúdo exclusivo Premium',
  seePlans: 'Ver Planos',
}

/** Paid content for a reader without Premium: the invitation to /pricing. */
export function PremiumInvite({ message, title = messages.premiumTitle }: { message: string; title?: string }) {
  return (
    <section aria-labelledby="premium-invite-title" className="flex flex-col items-center gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-8 text-center text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50">
      <Crown aria-hidden="true" className="h-10 w-10" />
      <h2 id="premium-invite-title" className="text-xl font-bold">
        {title}
      </h2>
      <p className="max-w-md">{message}</p>
      <Link to="/pricing" className={buttonClasses('primary', 'lg')}>
        {messages.seePlans}
      </Link>
    </section>
  )
}
