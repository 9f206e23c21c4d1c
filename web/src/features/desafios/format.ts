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

export const KINDS: Record<string, string> = {
  caso_clinico: 'Caso clínico',
  quiz: 'Quiz semanal',
  estudos: 'Sequência de estudos',
  comunidade: 'Comunidade',
}

/** The measured kinds: no questions; VetClube counts lessons completed or answers accepted against a goal. */
export const STUDY = 'estudos'
export const COMMUNITY = 'comunidade'

export function isMeasured(kind: string): boolean {
  return kind === STUDY || kind === COMMUNITY
}

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

/** "1 aula", "3 aulas". */
export function lessons(n: number): string {
  return n === 1 ? '1 aula' : `${n} aulas`
}

/** A measured kind's count: "1 aula", "2 respostas aceitas". */
export function units(kind: string, n: number): string {
  if (kind === COMMUNITY) return n === 1 ? '1 resposta aceita' : `${n} respostas aceitas`
  return lessons(n)
}

interface Progress {
  kind: string
  me: { status: string; answered: number; correct: number; total: number; points_awarded: number } | null
  question_count: number
  goal?: number
  done?: number
}

/** The member's progress on a card. */
export function progressLabel(c: Progress): string {
  if (!c.me) return 'Não iniciado'
  const measured = isMeasured(c.kind)
  switch (c.me.status) {
    case 'submitted':
      return measured
        ? `Concluído: ${units(c.kind, c.me.correct)} · ${c.me.points_awarded} VetCoins`
        : `Concluído: ${c.me.correct} de ${c.me.total} certas · ${c.me.points_awarded} VetCoins`
    case 'closed':
      return measured ? `Encerrado: ${c.done ?? 0} de ${units(c.kind, c.goal ?? 0)}` : 'Encerrado sem envio'
  }
  return measured ? `${c.done ?? 0} de ${units(c.kind, c.goal ?? 0)}` : `${c.me.answered} de ${c.question_count} respondidas`
}

/** The member's progress on a card, in percent. */
export function progressShare(c: Progress): number {
  if (!c.me) return 0
  if (c.me.status === 'submitted') return 100
  if (isMeasured(c.kind)) return c.goal ? Math.min(100, Math.round(((c.done ?? 0) / c.goal) * 100)) : 0
  return c.question_count > 0 ? Math.round((c.me.answered / c.question_count) * 100) : 0
}
