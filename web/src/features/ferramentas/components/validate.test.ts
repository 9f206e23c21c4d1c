import { describe, expect, it } from 'vitest'
import type { ToolField } from '../api'
import { initialValues, parseNumber, payload, validate } from './validate'

const fields: ToolField[] = [
  { name: 'especie', label: 'Espécie', type: 'select', required: true, options: [{ value: 'cao', label: 'Cão' }, { value: 'gato', label: 'Gato' }], default: 'cao' },
  { name: 'peso', label: 'Peso', type: 'number', unit: 'kg', required: true, min: 0.01, max: 150 },
  { name: 'fase_gato', label: 'Fase de vida', type: 'select', required: true, options: [{ value: 'castrado', label: 'Castrado' }], show_if: { field: 'especie', values: ['gato'] } },
]

describe('generic form validation', () => {
  it('gives pt-BR messages for missing, non-numeric and out-of-range values', () => {
    const values = initialValues(fields)
    expect(validate(fields, values)).toEqual({ peso: 'Preencha peso.' })
    expect(validate(fields, { ...values, peso: 'abc' })).toEqual({ peso: 'Peso deve ser um número.' })
    expect(validate(fields, { ...values, peso: '-2' })).toEqual({ peso: 'Peso deve ser no mínimo 0,01 kg.' })
    expect(validate(fields, { ...values, peso: '200' })).toEqual({ peso: 'Peso deve ser no máximo 150 kg.' })
    expect(validate(fields, { ...values, peso: '12,5' })).toEqual({})
  })

  it('checks and sends a field only while it is shown', () => {
    const cat = { especie: 'gato', peso: '4', fase_gato: '' }
    expect(validate(fields, cat)).toEqual({ fase_gato: 'Preencha fase de vida.' })
    expect(payload(fields, { especie: 'cao', peso: '4,5', fase_gato: 'castrado' })).toEqual({ especie: 'cao', peso: 4.5 })
  })

  it('parses Brazilian decimals', () => {
    expect(parseNumber('1.234,5')).toBe(1234.5)
    expect(parseNumber('0.5')).toBe(0.5)
    expect(parseNumber('1e3')).toBeNaN()
  })
})
