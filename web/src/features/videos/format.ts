const nf = new Intl.NumberFormat('pt-BR')

export function formatNumber(n: number): string {
  return nf.format(n)
}

export function viewsLabel(n: number): string {
  return n === 1 ? '1 visualização' : `${formatNumber(n)} visualizações`
}

export function likesLabel(n: number): string {
  const v = Math.max(0, n)
  return v === 1 ? '1 curtida' : `${formatNumber(v)} curtidas`
}

export function hoursLabel(h: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format(h)}h`
}
