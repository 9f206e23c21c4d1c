import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, useLocation } from 'react-router'
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
      {
        id: 'conversao',
        title: 'Conversão de unidades',
        action: 'conversao',
        fields: [{ name: 'valor', label: 'Valor', type: 'number', required: true }],
      },
    ],
  },
}

/** Shows the router's current search, so a test can read the URL. */
function Search() {
  return <p data-testid="url">{useLocation().search}</p>
}

function renderTool(url = '/ferramentas/calculadoras') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <FormTool tool={tool} />
      <Search />
    </MemoryRouter>,
  )
}

function answer(status: number, body: unknown) {
  return vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }))
}

const scrollIntoView = Element.prototype.scrollIntoView
afterEach(() => {
  vi.unstubAllGlobals()
  Element.prototype.scrollIntoView = scrollIntoView
})

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
    renderTool()

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
    renderTool()
    await user.type(screen.getByLabelText('Peso (kg)'), '10')
    await user.type(screen.getByLabelText('Concentração (mg/mL)'), '1')
    await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
    expect(await screen.findByText('A concentração deve ser maior que zero.')).toBeInTheDocument()
    expect(screen.getByText('Verifique os campos destacados.')).toHaveAttribute('role', 'alert')
  })

  // Patient safety: a dose on screen always belongs to the inputs on screen.
  describe('a result never outlives its inputs', () => {
    const dose = {
      values: [
        { label: 'Dose total', number: 37.5, unit: 'mg', display: '37,50 mg' },
        { label: 'Volume a administrar', number: 0.75, unit: 'mL', display: '0,75 mL' },
      ],
    }

    async function calculate(fetch: ReturnType<typeof vi.fn>) {
      vi.stubGlobal('fetch', fetch)
      const user = userEvent.setup()
      renderTool()
      await user.type(screen.getByLabelText('Peso (kg)'), '12')
      await user.type(screen.getByLabelText('Concentração (mg/mL)'), '50')
      await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
      expect(await screen.findByText('37,50 mg')).toBeInTheDocument()
      return user
    }

    it('withdraws the result the moment an input changes, and says so', async () => {
      const user = await calculate(answer(200, dose))
      await user.clear(screen.getByLabelText('Peso (kg)'))
      await user.type(screen.getByLabelText('Peso (kg)'), '30')
      expect(screen.queryByText('37,50 mg')).not.toBeInTheDocument()
      expect(screen.queryByText('0,75 mL')).not.toBeInTheDocument()
      expect(screen.queryByRole('region', { name: 'Resultado' })).not.toBeInTheDocument()
      const stale = 'O resultado anterior foi removido porque os dados mudaram. Calcule novamente.'
      expect(screen.getByRole('status')).toHaveTextContent(stale)
      // Sighted users see why the result went away, in the result's place.
      expect(screen.getByText(stale, { selector: 'div' })).toBeVisible()
    })

    it('shows no result after a failing check in the browser', async () => {
      const fetch = answer(200, dose)
      const user = await calculate(fetch)
      await user.clear(screen.getByLabelText('Peso (kg)'))
      await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
      expect(screen.getByText('Preencha peso.')).toBeInTheDocument()
      expect(screen.queryByText('37,50 mg')).not.toBeInTheDocument()
      expect(fetch).toHaveBeenCalledTimes(1)
    })

    it('withdraws the result when the plugin refuses the same inputs', async () => {
      const fetch = answer(200, dose)
      fetch.mockResolvedValueOnce(new Response(JSON.stringify(dose), { status: 200, headers: { 'Content-Type': 'application/json' } }))
      fetch.mockResolvedValueOnce(
        new Response(JSON.stringify({ error: { code: 'invalid', message: 'Verifique os campos destacados.', fields: { peso: 'O peso está fora da faixa.' } } }), {
          status: 422,
          headers: { 'Content-Type': 'application/json' },
        }),
      )
      const user = await calculate(fetch)
      await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
      expect(await screen.findByText('O peso está fora da faixa.')).toBeInTheDocument()
      expect(screen.queryByText('37,50 mg')).not.toBeInTheDocument()
    })

    it('drops an answer that arrives after the inputs changed', async () => {
      let deliver!: (r: Response) => void
      const fetch = vi.fn().mockReturnValue(new Promise<Response>((resolve) => (deliver = resolve)))
      vi.stubGlobal('fetch', fetch)
      const user = userEvent.setup()
      renderTool()
      await user.type(screen.getByLabelText('Peso (kg)'), '12')
      await user.type(screen.getByLabelText('Concentração (mg/mL)'), '50')
      await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
      await user.type(screen.getByLabelText('Peso (kg)'), '0')
      deliver(new Response(JSON.stringify(dose), { status: 200, headers: { 'Content-Type': 'application/json' } }))
      await waitFor(() => expect(screen.getByRole('button', { name: 'Calcular dose' })).not.toBeDisabled())
      expect(screen.queryByText('37,50 mg')).not.toBeInTheDocument()
    })

    it('announces the result in a live region, scrolls it into view and focuses its heading', async () => {
      const scrolled = vi.fn()
      Element.prototype.scrollIntoView = scrolled
      vi.stubGlobal('fetch', answer(200, dose))
      const user = userEvent.setup()
      renderTool()
      const status = screen.getByRole('status')
      expect(status).toHaveAttribute('aria-live', 'polite')
      expect(status).toBeEmptyDOMElement()
      await user.type(screen.getByLabelText('Peso (kg)'), '12')
      await user.type(screen.getByLabelText('Concentração (mg/mL)'), '50')
      await user.click(screen.getByRole('button', { name: 'Calcular dose' }))
      const region = await screen.findByRole('region', { name: 'Resultado' })
      expect(status).toHaveTextContent('Resultado: Dose total: 37,50 mg; Volume a administrar: 0,75 mL.')
      expect(screen.getByRole('heading', { name: 'Resultado' })).toHaveFocus()
      expect(scrolled).toHaveBeenCalledTimes(1)
      expect(scrolled.mock.contexts[0]).toBe(region)
    })
  })

  describe('tabs', () => {
    it('opens the tab named in the URL', () => {
      renderTool('/ferramentas/calculadoras?aba=conversao')
      expect(screen.getByRole('tab', { name: 'Conversão de unidades' })).toHaveAttribute('aria-selected', 'true')
      expect(screen.getByRole('form', { name: 'Conversão de unidades' })).toBeInTheDocument()
    })

    it('puts the open tab in the URL and keeps every tab’s inputs when switching', async () => {
      const user = userEvent.setup()
      renderTool()
      await user.type(screen.getByLabelText('Peso (kg)'), '12')
      await user.click(screen.getByRole('tab', { name: 'Conversão de unidades' }))
      expect(screen.getByTestId('url')).toHaveTextContent('?aba=conversao')
      await user.type(screen.getByLabelText('Valor'), '7')
      await user.click(screen.getByRole('tab', { name: 'Dose de medicamento' }))
      expect(screen.getByTestId('url')).toHaveTextContent('?aba=dose')
      expect(screen.getByLabelText('Peso (kg)')).toHaveValue('12')
      await user.click(screen.getByRole('tab', { name: 'Conversão de unidades' }))
      expect(screen.getByLabelText('Valor')).toHaveValue('7')
    })
  })
})
