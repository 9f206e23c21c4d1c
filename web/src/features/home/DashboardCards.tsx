import { Link } from 'react-router'
import { ArrowRight, Wrench } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { useDashboardCards } from './api'

/**
 * The tools' own cards on the home page (a plugin hook). Nothing at all is
 * shown while they load, when no tool has a card, or when the read fails:
 * they are extras, and the rest of the home page does not depend on them.
 */
export function DashboardCards() {
  const { data: cards } = useDashboardCards()
  if (!cards || cards.length === 0) return null
  return (
    <section aria-labelledby="dashboard-cards-title" className="flex flex-col gap-3">
      <h2 id="dashboard-cards-title" className="text-lg font-semibold">
        Novidades das ferramentas
      </h2>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {cards.map((card, i) => (
          <li key={`${card.plugin}-${i}`} className="flex">
            <Card className="flex flex-1 flex-col gap-3 p-5">
              <div className="flex items-center gap-2">
                <Wrench aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
                <h3 className="text-base font-semibold leading-tight">{card.title}</h3>
              </div>
              {card.body && <p className="flex-1 whitespace-pre-line text-sm text-muted-foreground">{card.body}</p>}
              {card.link && (
                // The card's title in the name tells the links apart for screen readers.
                <Link to={card.link} aria-label={`Abrir ${card.title}`} className={buttonClasses('outline', 'sm', 'self-start')}>
                  Abrir
                  <ArrowRight aria-hidden="true" className="h-4 w-4" />
                </Link>
              )}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  )
}
