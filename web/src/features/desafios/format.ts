// Labels of the challenges' fields (plugins/desafios declares the same values).

export const SPECIALTIES: { value: string; label: string }[] = [
  { value: 'clinica_geral', label: 'Clínica Geral' },
  { value: 'cirurgia', label: 'Cirurgia' },
  { value: 'reproducao', label: 'Reprodução' },
  { value: 'dermatologia', label: 'Dermatologia' },
  { value: 'cardiologia', label: 'Cardiologia' },
  { value: 'ortopedia', label: 'Ortopedia' },
  { value: 'oftalmologia', label: 'Oftalmologia' },
  { value: 'neurologia', label: 'Neurologia' },
  { value: 'oncologia', label: 'Oncologia' },
  { value: 'medicina_preventiva', label: 'Medicina Preventiva' },
  { value: 'emergencias', label: 'Emergências' },
  { value: 'animais_silvestres', label: 'Animais Silvestres' },
]

export const DIFFICULTIES: { value: string; label: string }[] = [
  { value: 'facil', label: 'Fácil' },
  { value: 'medio', label: 'Médio' },
  { value: 'dificil', label: 'Difícil' },
]

export const KINDS: Record<string, string> = { caso_clinico: 'Caso clínico', quiz: 'Quiz semanal' }

export const LETTERS = ['A', 'B', 'C', 'D', 'E']

export function specialtyLabel(v: string): string {
  return SPECIALTIES.find((s) => s.value === v)?.label ?? v
}

export function difficultyLabel(v: string): string {
  return DIFFICULTIES.find((s) => s.value === v)?.label ?? v
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' })

/** "08/12, 18:00" in the viewer's zone. */
export function formatMoment(iso: string): string {
  return dateTime.format(new Date(iso))
}

/** The member's progress on a card. */
export function progressLabel(c: { me: { status: string; answered: number; correct: number; total: number; points_awarded: number } | null; question_count: number }): string {
  if (!c.me) return 'Não iniciado'
  switch (c.me.status) {
    case 'submitted':
      return `Concluído: ${c.me.correct} de ${c.me.total} certas · ${c.me.points_awarded} VetCoins`
    case 'closed':
      return 'Encerrado sem envio'
  }
  return `${c.me.answered} de ${c.question_count} respondidas`
}
