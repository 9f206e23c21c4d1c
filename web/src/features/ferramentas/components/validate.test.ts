import { describe, expect, it } from 'vitest'
import type { ToolField } from '../api'
import { initialValues, parseNumber, payload, validate } from './validate'

const fields: ToolField[] = [
  { name: 'especie', label: 'Espécie', type: 'select', required: true, options: [{ value: 'cao', label: 'Cão' }, { value: 'gato', label: 'Gato' }], default: 'cao' },
  { name: 'peso', label: 'Peso', type: 'number', unit: 'kg', required: true, min: 0.01, max: 150 },
  { name: 'custos', label: 'Custos fixos mensais', noun: 'os custos fixos', type: 'number', unit: 'R$', min: 0, max: 10_000_000 } as ToolField,
  { name: 'entrada', label: 'Entrada', noun: 'a entrada', type: 'number', unit: 'R$', min: 1.5 } as ToolField,
  { name: 'perdas', label: 'Perdas', noun: 'as perdas', type: 'number', min: 0 } as ToolField,
  { name: 'horas', label: 'Horas', noun: 'as horas', type: 'number', unit: 'h', min: 1 } as ToolField,
  { name: 'fase_gato', label: 'Fase de vida', type: 'select', required: true, options: [{ value: 'castrado', label: 'Castrado' }], show_if: { field: 'especie', values: ['gato'] } },
]

describe('generic form validation', () => {
  it('gives pt-BR messages for missing, non-numeric and out-of-range values', () => {
    const values = initialValues(fields)
    expect(validate(fields, values)).toEqual({ peso: 'Preencha peso.' })
    expect(validate(fields, { ...values, peso: 'abc' })).toEqual({ peso: 'Informe o campo «Peso» em números.' })
    expect(validate(fields, { ...values, peso: '-2' })).toEqual({ peso: 'O campo «Peso» deve estar entre 0,01 e 150 kg.' })
    expect(validate(fields, { ...values, peso: '200' })).toEqual({ peso: 'O campo «Peso» deve estar entre 0,01 e 150 kg.' })
    expect(validate(fields, { ...values, peso: '12,5' })).toEqual({})
  })

  it('agrees with the field noun and writes money limits as reais, like the SDK', () => {
    const values = { ...initialValues(fields), peso: '4' }
    expect(validate(fields, { ...values, custos: 'muito' })).toEqual({ custos: 'Informe os custos fixos em números.' })
    expect(validate(fields, { ...values, custos: '-1' })).toEqual({ custos: 'Os custos fixos devem estar entre R$ 0,00 e R$ 10.000.000,00.' })
    expect(validate(fields, { ...values, custos: 'R$ 10.000.000,01' })).toEqual({ custos: 'Os custos fixos devem estar entre R$ 0,00 e R$ 10.000.000,00.' })
    expect(validate(fields, { ...values, custos: 'R$ 25.000,00' })).toEqual({})
    expect(validate(fields, { ...values, entrada: '1,25' })).toEqual({ entrada: 'A entrada deve ser de no mínimo R$ 1,50.' })
    expect(validate(fields, { ...values, perdas: '-1' })).toEqual({ perdas: 'As perdas não podem ser negativas.' })
    expect(validate(fields, { ...values, horas: '0' })).toEqual({ horas: 'As horas devem ser maiores que zero.' })
    expect(validate(fields, { ...values, horas: '0,5' })).toEqual({ horas: 'As horas devem ser de no mínimo 1 h.' })
    expect(payload(fields, { ...values, custos: 'R$ 25.000,00', horas: '1.200' })).toMatchObject({ custos: 25000, horas: 1200 })
  })

  it('checks and sends a field only while it is shown', () => {
    const cat = { especie: 'gato', peso: '4', fase_gato: '' }
    expect(validate(fields, cat)).toEqual({ fase_gato: 'Preencha fase de vida.' })
    expect(payload(fields, { especie: 'cao', peso: '4,5', fase_gato: 'castrado' })).toEqual({ especie: 'cao', peso: 4.5 })
  })

  // Mirrors numberCases in plugins/sdk/number_test.go: the browser and the
  // server read numbers alike (NaN here is ok=false there).
  const numberCases: [string, number][] = [
    ['12', 12],
    ['12,5', 12.5],
    ['1,5', 1.5],
    ['1.5', 1.5],
    ['1.25', 1.25],
    ['1.2345', 1.2345],
    ['0.5', 0.5],
    ['0.500', 0.5],
    [',5', 0.5],
    ['1.200', 1200],
    ['25.000', 25000],
    ['1.234.567', 1234567],
    ['1.234,5', 1234.5],
    ['1.234.567,89', 1234567.89],
    ['R$ 25.000,00', 25000],
    ['R$25.000,00', 25000],
    [' R$ 1.530,46 ', 1530.46],
    ['-12,5', -12.5],
    ['-R$ 3,00', -3],
    ['', NaN],
    ['abc', NaN],
    ['1e3', NaN],
    ['1.2.3', NaN],
    ['1.23,4', NaN],
    ['12.34.567', NaN],
    ['1,2,3', NaN],
    ['1.234.5', NaN],
    ['12,', NaN],
    ['Inf', NaN],
    ['NaN', NaN],
    ['0x10', NaN],
    ['R$', NaN],
    ['-', NaN],
  ]
  it.each(numberCases)('parses %j the Brazilian way', (raw, want) => {
    expect(parseNumber(raw)).toBe(want)
  })
})
