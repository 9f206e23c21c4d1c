import { brDate, num } from './api'

/** A small line chart of the patient's dated weights, with a text table for screen readers. */
export function WeightChart({ points }: { points: { date: string; kg: number }[] }) {
  const first = points[0]
  const last = points[points.length - 1]
  if (!first || !last) return <p className="text-sm text-muted-foreground">Nenhum peso registrado.</p>
  const w = 320
  const h = 100
  const pad = 10
  const min = Math.min(...points.map((p) => p.kg))
  const max = Math.max(...points.map((p) => p.kg))
  const span = max - min || 1
  const xy = points.map((p, i) => {
    const x = points.length === 1 ? w / 2 : pad + (i * (w - 2 * pad)) / (points.length - 1)
    const y = h - pad - ((p.kg - min) / span) * (h - 2 * pad)
    return [x, y] as const
  })
  return (
    <figure className="flex flex-col gap-2">
      <svg viewBox={`0 0 ${w} ${h}`} className="h-28 w-full max-w-md" role="img" aria-label={`Peso de ${num(first.kg)} kg a ${num(last.kg)} kg`}>
        <polyline fill="none" stroke="currentColor" strokeWidth="2" className="text-teal-700" points={xy.map(([x, y]) => `${x},${y}`).join(' ')} />
        {xy.map(([x, y], i) => (
          <circle key={i} cx={x} cy={y} r="3" className="fill-teal-700" />
        ))}
      </svg>
      <figcaption className="sr-only">Histórico de peso</figcaption>
      <table className="text-sm">
        <caption className="sr-only">Pesos registrados</caption>
        <thead>
          <tr>
            <th scope="col" className="text-left font-medium">
              Data
            </th>
            <th scope="col" className="text-left font-medium">
              Peso
            </th>
          </tr>
        </thead>
        <tbody>
          {points
            .slice(-5)
            .reverse()
            .map((p, i) => (
              <tr key={i}>
                <td>{brDate(p.date)}</td>
                <td>{num(p.kg)} kg</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  )
}
