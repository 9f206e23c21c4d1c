import { describe, expect, it } from 'vitest'
import { lessons, progressLabel, progressShare, units } from './format'

const me = (status: string, extra: Partial<{ answered: number; correct: number; total: number; points_awarded: number }> = {}) => ({
  status,
  answered: 0,
  correct: 0,
  total: 0,
  points_awarded: 0,
  ...extra,
})

describe('challenge progress', () => {
  it('counts answers of a quiz', () => {
    const c = { kind: 'quiz', question_count: 4, me: me('in_progress', { answered: 1 }) }
    expect(progressLabel(c)).toBe('1 de 4 respondidas')
    expect(progressShare(c)).toBe(25)
    expect(progressLabel({ ...c, me: me('submitted', { correct: 3, total: 4, points_awarded: 45 }) })).toBe('Concluído: 3 de 4 certas · 45 VetCoins')
    expect(progressLabel({ ...c, me: null })).toBe('Não iniciado')
  })

  it('counts lessons of a study streak against its goal', () => {
    const c = { kind: 'estudos', question_count: 0, goal: 5, done: 2, me: me('in_progress') }
    expect(progressLabel(c)).toBe('2 de 5 aulas')
    expect(progressShare(c)).toBe(40)
    expect(progressShare({ ...c, done: 9 })).toBe(100)
    expect(progressLabel({ ...c, me: me('submitted', { correct: 6, points_awarded: 50 }) })).toBe('Concluído: 6 aulas · 50 VetCoins')
    expect(progressLabel({ ...c, me: me('closed') })).toBe('Encerrado: 2 de 5 aulas')
    expect(lessons(1)).toBe('1 aula')
  })

  it('counts accepted answers of a community challenge', () => {
    const c = { kind: 'comunidade', question_count: 0, goal: 3, done: 1, me: me('in_progress') }
    expect(progressLabel(c)).toBe('1 de 3 respostas aceitas')
    expect(progressShare(c)).toBe(33)
    expect(progressLabel({ ...c, me: me('submitted', { correct: 3, points_awarded: 60 }) })).toBe('Concluído: 3 respostas aceitas · 60 VetCoins')
    expect(units('comunidade', 1)).toBe('1 resposta aceita')
  })
})
