/** The trial indicator's words: "Premium grátis: 5 dias restantes". */
export function trialLabel(daysLeft: number): string {
  return daysLeft === 1 ? 'Premium grátis: 1 dia restante' : `Premium grátis: ${daysLeft} dias restantes`
}

/** When the trial ends, in the reader's words ("2 de dezembro"). */
export function trialEndDate(endsAt: string): string {
  return new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long' }).format(new Date(endsAt))
}
