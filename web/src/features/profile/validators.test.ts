import { describe, expect, it } from 'vitest'
import {
  formatCpf,
  formatPhone,
  normalizeCpf,
  normalizeCrmv,
  normalizePhone,
  validateProfile,
} from './validators'
import type { ProfileUpdate } from './types'

describe('normalizeCrmv', () => {
  it('accepts what people type and returns the canonical form', () => {
    expect(normalizeCrmv('CRMV-SP 12345')).toEqual({ value: 'CRMV-SP 12345' })
    expect(normalizeCrmv('crmv sp 012345')).toEqual({ value: 'CRMV-SP 12345' })
    expect(normalizeCrmv('CRMV/RJ-123')).toEqual({ value: 'CRMV-RJ 123' })
    expect(normalizeCrmv('12345-MG')).toEqual({ value: 'CRMV-MG 12345' })
    expect(normalizeCrmv('CRMV-SP nº 12345')).toEqual({ value: 'CRMV-SP 12345' })
  })
  it('rejects blanks, other formats and unknown states with the server reasons', () => {
    expect(normalizeCrmv('  ')).toEqual({ error: 'Informe o CRMV.' })
    expect(normalizeCrmv('CRMV 12345')).toEqual({
      error: 'CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345).',
    })
    expect(normalizeCrmv('CRMV-SP 0000')).toEqual({
      error: 'CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345).',
    })
    expect(normalizeCrmv('CRMV-XX 12345')).toEqual({
      error: 'UF do CRMV inválida: XX. Use a sigla de um estado brasileiro (ex.: CRMV-SP 12345).',
    })
  })
})

describe('normalizeCpf', () => {
  it('accepts valid check digits, formatted or not', () => {
    expect(normalizeCpf('529.982.247-25')).toEqual({ value: '52998224725' })
    expect(normalizeCpf('111 444 777 35')).toEqual({ value: '11144477735' })
  })
  it('rejects wrong check digits, repeated digits, letters and wrong lengths', () => {
    expect(normalizeCpf('529.982.247-24')).toEqual({ error: 'CPF inválido.' })
    expect(normalizeCpf('529.982.247-15')).toEqual({ error: 'CPF inválido.' })
    expect(normalizeCpf('111.111.111-11')).toEqual({ error: 'CPF inválido.' })
    expect(normalizeCpf('5299822472')).toEqual({ error: 'CPF inválido: deve ter 11 dígitos.' })
    expect(normalizeCpf('529a98224725')).toEqual({
      error: 'CPF inválido: use apenas números (ex.: 123.456.789-09).',
    })
  })
  it('formats as 000.000.000-00 while typing', () => {
    expect(formatCpf('52998224725')).toBe('529.982.247-25')
    expect(formatCpf('5299')).toBe('529.9')
    expect(formatCpf('5299822')).toBe('529.982.2')
  })
})

describe('normalizePhone', () => {
  it('accepts mobiles and landlines with area code, +55 and a trunk 0', () => {
    expect(normalizePhone('(11) 91234-5678')).toEqual({ value: '11912345678' })
    expect(normalizePhone('+55 21 3456-7890')).toEqual({ value: '2134567890' })
    expect(normalizePhone('0 11 98765-4321')).toEqual({ value: '11987654321' })
  })
  it('rejects missing area code, unused area codes and wrong first digits', () => {
    expect(normalizePhone('91234-5678').error).toBe(
      'Telefone inválido: informe DDD e número, com 10 ou 11 dígitos (ex.: (11) 98765-4321).',
    )
    expect(normalizePhone('(20) 91234-5678')).toEqual({ error: 'DDD inválido: 20.' })
    expect(normalizePhone('(11) 81234-5678')).toEqual({
      error: 'Celular inválido: números com 11 dígitos começam com 9 depois do DDD.',
    })
    expect(normalizePhone('(11) 9234-5678')).toEqual({
      error: 'Telefone fixo inválido: depois do DDD o número começa com 2, 3, 4 ou 5.',
    })
    expect(normalizePhone('ramal 12').error).toBe(
      'Telefone inválido: use apenas números, com DDD (ex.: (11) 98765-4321).',
    )
  })
  it('formats stored digits for display', () => {
    expect(formatPhone('11987654321')).toBe('(11) 98765-4321')
    expect(formatPhone('2134567890')).toBe('(21) 3456-7890')
  })
})

describe('validateProfile', () => {
  const valid: ProfileUpdate = {
    first_name: 'Maria',
    last_name: 'Souza',
    title: 'Médica Veterinária',
    biography: 'Clínica de pequenos animais.',
    specialties: ['clinica_geral'],
    has_crmv: true,
    crmv: 'CRMV-SP 12345',
    phone: '(11) 91234-5678',
    has_whatsapp: true,
    is_not_veterinarian: false,
    cpf: '529.982.247-25',
  }

  it('passes a valid profile', () => {
    expect(validateProfile(valid)).toEqual({})
  })

  it('lets phone, CPF and CRMV stay empty when not claimed', () => {
    expect(validateProfile({ ...valid, phone: '', has_whatsapp: false, cpf: '', has_crmv: false, crmv: '' })).toEqual({})
  })

  it('lets title and biography stay empty (their minimums apply only when filled)', () => {
    expect(validateProfile({ ...valid, title: '', biography: '  ' })).toEqual({})
  })

  it('names every bad field with the server reason', () => {
    expect(
      validateProfile({
        ...valid,
        first_name: ' ',
        last_name: 'x'.repeat(101),
        title: ' MV ',
        biography: 'curta',
        crmv: '',
        phone: '',
        cpf: '123.456.789-00',
        is_not_veterinarian: true,
      }),
    ).toEqual({
      first_name: 'Informe seu nome.',
      last_name: 'O sobrenome deve ter no máximo 100 caracteres.',
      title: 'O título deve ter pelo menos 3 caracteres.',
      biography: 'A biografia deve ter pelo menos 10 caracteres.',
      has_crmv: 'Quem não é médico-veterinário não pode informar CRMV.',
      crmv: 'Informe o CRMV.',
      phone: 'Informe o telefone para indicar que ele tem WhatsApp.',
      cpf: 'CPF inválido.',
    })
  })
})
