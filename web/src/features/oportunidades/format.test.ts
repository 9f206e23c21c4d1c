import { describe, expect, it } from 'vitest'
import { dayLabel, filterLabel, salaryLabel } from './format'
import { emptyFilter } from './api'

describe('jobs format', () => {
  it('says the salary range or a combinar', () => {
    expect(salaryLabel({ salary_min: 6000, salary_max: 9000 })).toMatch(/^R\$\s6\.000 – R\$\s9\.000$/)
    expect(salaryLabel({ salary_min: 6000, salary_max: null })).toMatch(/^A partir de R\$\s6\.000$/)
    expect(salaryLabel({ salary_min: null, salary_max: 9000 })).toMatch(/^Até R\$\s9\.000$/)
    expect(salaryLabel({ salary_min: null, salary_max: null })).toBe('A combinar')
  })
  it('writes the closing day and a saved search in pt-BR', () => {
    expect(dayLabel('2026-12-10')).toBe('10/12/2026')
    expect(filterLabel({ ...emptyFilter, state: 'SP', contract: 'clt', q: 'cirurgia' })).toBe('“cirurgia” · SP · CLT')
    expect(filterLabel(emptyFilter)).toBe('Todas as vagas')
  })
})
