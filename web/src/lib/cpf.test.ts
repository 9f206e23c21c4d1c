import { describe, expect, it } from 'vitest'
import { formatCpf, isValidCpf } from './cpf'

describe('CPF check digits', () => {
  it.each(['529.982.247-25', '52998224725', '111.444.777-35', '123.456.789-09', '935.411.347-80', '000.000.001-91'])('accepts %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true)
  })

  it.each([
    ['a wrong first digit', '529.982.247-35'],
    ['a wrong second digit', '529.982.247-26'],
    ['all digits equal', '111.111.111-11'],
    ['zeros', '000.000.000-00'],
    ['too short', '529.982.247-2'],
    ['too long', '529.982.247-251'],
    ['empty', ''],
    ['letters', 'abc.def.ghi-jk'],
  ])('refuses %s', (_, cpf) => {
    expect(isValidCpf(cpf)).toBe(false)
  })

  it('masks while typing', () => {
    expect(formatCpf('5299')).toBe('529.9')
    expect(formatCpf('5299822')).toBe('529.982.2')
    expect(formatCpf('52998224725')).toBe('529.982.247-25')
    expect(formatCpf('529.982.247-25999')).toBe('529.982.247-25')
  })
})
