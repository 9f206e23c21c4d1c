import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Certificate } from '../api'
import { course, fakeCoursesApi, installBrowserGaps, renderRoutes } from '../test/fakeCoursesApi'
import CertificatePage from './CertificatePage'
import PublicCertificatePage from './PublicCertificatePage'

function cert(code: string, overrides: Partial<Certificate> = {}): Certificate {
  return {
    code,
    course_id: 'c1',
    course_title: 'Dermatologia veterinária',
    learner_name: 'Dra. Lia Prado',
    hours: 12,
    issued_at: '2026-11-20T15:00:00Z',
    status: 'valid',
    revoked_at: null,
    verify_url: `/certificados/${code}`,
    html_url: `/api/certificados/${code}/imprimir`,
    pdf_url: `/api/certificados/${code}/pdf`,
    ...overrides,
  }
}

const routes = [
  { path: '/certificados/:code', element: <PublicCertificatePage /> },
  { path: '/cursos/:id/certificado', element: <CertificatePage /> },
]

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('PublicCertificatePage', () => {
  it("shows 'Certificado válido' with only name, course, hours and date, signed out", async () => {
    const api = fakeCoursesApi({ signedIn: false, certificates: [cert('7K3MXQ')] })
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
    renderRoutes(routes, '/certificados/7K3MXQ')
    expect(await screen.findByText('Certificado válido')).toBeInTheDocument()
    const details = screen.getByRole('region', { name: 'Certificado válido' })
    const terms = within(details).getAllByRole('term').map((t) => t.textContent)
    expect(terms).toEqual(['Nome', 'Curso', 'Carga horária', 'Data de conclusão'])
    expect(within(details).getAllByRole('definition').map((d) => d.textContent)).toEqual(['Dra. Lia Prado', 'Dermatologia veterinária', '12 horas', '20 de novembro de 2026'])
    expect(api.calls.map((c) => c.path)).toEqual(['/api/certificados/7K3MXQ'])
  })

  it('names the instructor recorded on the certificate', async () => {
    fakeCoursesApi({ signedIn: false, certificates: [cert('7K3MXQ', { instructor_name: 'Dr. Paulo Reis', instructor_title: 'Dermatologista' })] })
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
    renderRoutes(routes, '/certificados/7K3MXQ')
    const details = await screen.findByRole('region', { name: 'Certificado válido' })
    expect(within(details).getAllByRole('term').map((t) => t.textContent)).toEqual(['Nome', 'Curso', 'Instrutor(a)', 'Carga horária', 'Data de conclusão'])
    expect(within(details).getByText('Dr. Paulo Reis')).toBeInTheDocument()
  })

  it("shows 'Certificado revogado'", async () => {
    fakeCoursesApi({ certificates: [cert('REV1', { status: 'revoked', revoked_at: '2026-11-21T00:00:00Z' })] })
    renderRoutes(routes, '/certificados/REV1')
    expect(await screen.findByText('Certificado revogado')).toBeInTheDocument()
    expect(screen.queryByText('Certificado válido')).toBeNull()
    expect(screen.getByText('Dra. Lia Prado')).toBeInTheDocument()
  })

  it('says plainly that an unknown code was not found', async () => {
    fakeCoursesApi({ certificates: [] })
    renderRoutes(routes, '/certificados/NAOEXISTE')
    expect(await screen.findByText('Certificado não encontrado.')).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('Confira se o código foi digitado corretamente.')
  })
})

describe('CertificatePage', () => {
  it("renders the learner's certificate with 'Imprimir' and 'Baixar PDF'", async () => {
    fakeCoursesApi({ courses: [course('c1', { is_enrolled: true, is_completed: true, progress: 100, my_certificate: cert('7K3MXQ') })] })
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined)
    renderRoutes(routes, '/cursos/c1/certificado')
    const doc = await screen.findByRole('article', { name: 'Certificado de conclusão' })
    expect(doc).toHaveClass('vc-certificate')
    expect(doc).toHaveTextContent('Dra. Lia Prado')
    expect(doc).toHaveTextContent('concluiu o curso Dermatologia veterinária, com carga horária de 12 horas, em 20 de novembro de 2026.')
    expect(doc).toHaveTextContent('Código de verificação: 7K3MXQ')
    expect(doc).toHaveTextContent(`${window.location.origin}/certificados/7K3MXQ`)
    // The course's instructor signs it.
    expect(doc).toHaveTextContent('Dra. Ana Lima')
    expect(doc).toHaveTextContent('Instrutor(a) do curso · Médica veterinária, MSc')
    await userEvent.click(screen.getByRole('button', { name: 'Imprimir' }))
    expect(print).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('link', { name: 'Baixar PDF' })).toHaveAttribute('href', '/api/certificados/7K3MXQ/pdf')
  })

  it('is signed by the instructor recorded when it was issued, not a later one', async () => {
    fakeCoursesApi({
      courses: [course('c1', { is_enrolled: true, is_completed: true, progress: 100, my_certificate: cert('7K3MXQ', { instructor_name: 'Dr. Paulo Reis', instructor_title: 'Dermatologista' }) })],
    })
    renderRoutes(routes, '/cursos/c1/certificado')
    const doc = await screen.findByRole('article', { name: 'Certificado de conclusão' })
    expect(doc).toHaveTextContent('Dr. Paulo Reis')
    expect(doc).toHaveTextContent('Instrutor(a) do curso · Dermatologista')
    expect(doc).not.toHaveTextContent('Dra. Ana Lima')
  })

  it('explains when there is no certificate yet', async () => {
    fakeCoursesApi({ courses: [course('c1', { is_enrolled: true, progress: 40 })] })
    renderRoutes(routes, '/cursos/c1/certificado')
    expect(await screen.findByText(/Você ainda não tem o certificado deste curso/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Imprimir' })).toBeNull()
  })
})
