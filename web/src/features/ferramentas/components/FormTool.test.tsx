import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Tool } from '../api'
import { FormTool } from './FormTool'

const tool: Tool = {
  id: 'calculadoras',
  name: 'Calculadoras Veterinárias',
  description: '',
  version: '1.0.0',
  icon: 'calculator',
  category: 'Clínica',
  slug: 'calculadoras',
  access: 'user',
  premium: false,
  locked: false,
  ui_kind: 'form',
  available: true,
  ui_schema: {
    forms: [
      {
        id: 'dose',
        title: 'Dose de medicamento',
        action: 'dose',
        submit: 'Calcular dose',
        fields: [
          { name: 'peso', label: 'Peso', type: 'number', unit: 'kg', required: true, min: 0.01 },
          { name: 'concentracao', label: 'Concentração', type: 'number', unit: 'mg/mL', required: true, min: 0.0001 },
        ],
      },
      { id: 'conversao', title: 'Conversão de unidades', action: 'conversao', fields: [] },
    ],
  },
}

function answer(status: number, body: unknown) {
  return vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }))
}

afterEach(() => vi.unstubAllGlobals())

describe('FormTool (generic renderer)', () => {
  it('checks inputs in pt-BR, sends numbers and shows labelled results', async () => {
    const fetch = answer(200, {
      values: [{ label: 'Volume a administrar', number: 1, unit: 'mL', display: '1,00 mL' }],
      tables: [{ title: 'Detalhes', columns: ['Item', 'Valor'], rows: [['Dose', '50 mg']] }],
      explanation: '50 mg ÷ 50 mg/mL = 1 mL.',
      reference: 'Plumb',
    })
    vi.stubGlobal('fetch', fetch)
    const user = userEvent.setup()
    render(<FormTool tool={tool} />)

    expect(screen.getByRole('tab', { name: 'Dose de medicamento' })).toHaveAttribute('aria-selected', 'true')
    await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
    expect(screen.getByText('Preencha peso.')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()

    await user.type(screen.getByLabelText('Peso (kg)'), '10,5')
    await user.type(screen.getByLabelText('Concentração (mg/mL)'), '50')
    await user.click(screen.getByRole('button', { name: 'Calcular dose' }))

    expect(await screen.findByText('1,00 mL')).toBeInTheDocument()
    expect(screen.getByRole('cell', { name: '50 mg' })).toBeInTheDocument()
    expect(screen.getByText('Referência: Plumb')).toBeInTheDocument()
    const [url, init] = fetch.mock.calls[0]!
    expect(url).toBe('/api/tools/calculadoras/dose')
    expect(JSON.parse(init.body)).toEqual({ peso: 10.5, concentracao: 50 })
  })

  it('shows the plugin’s own field messages', async () => {
    vi.stubGlobal('fetch', answer(422, { error: { code: 'invalid', message: 'Verifique os campos destacados.', fields: { concentracao: 'A concentração deve ser maior que zero.' } } }))
    const user = userEvent.setup()
    render(<FormTool tool={tool} />)
    await user.type(screen.getByLabelText('Peso (kg)'), '10')
    await user.type(screen.getByLabelText('Concentração (mg/mL)'), '1')
    await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
    expect(await screen.findByText('A concentração deve ser maior que zero.')).toBeInTheDocument()
    expect(screen.getByText('Verifique os campos destacados.')).toHaveAttribute('role', 'alert')
  })
})
