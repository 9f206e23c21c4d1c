import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Certificate } from '../api'
import { fakeCoursesApi, installBrowserGaps, renderRoutes } from '../test/fakeCoursesApi'
import { MyCertificates } from './MyCertificates'

const cert = (code: string, course_id: string, course_title: string, hours: number, issued_at: string, status: 'valid' | 'revoked' = 'valid'): Certificate => ({
  code,
  course_id,
  course_title,
  learner_name: 'Dra. Lia Prado',
  hours,
  issued_at,
  status,
  revoked_at: status === 'revoked' ? issued_at : null,
  verify_url: `/certificados/${code}`,
  html_url: '',
  pdf_url: '',
})

beforeEach(() => installBrowserGaps())
afterEach(() => vi.unstubAllGlobals())

describe('MyCertificates', () => {
  it('lists the certificates with the continuing-education hours per year', async () => {
    fakeCoursesApi({
      certificates: [
        cert('A', 'c1', 'Dermatologia veterinária', 12, '2026-03-10T12:00:00Z'),
        cert('B', 'c2', 'Emergências', 6, '2026-08-10T12:00:00Z'),
        cert('C', 'c3', 'Gestão de clínicas', 4, '2025-05-10T12:00:00Z'),
        cert('D', 'c4', 'Curso revogado', 10, '2025-06-10T12:00:00Z', 'revoked'),
      ],
    })
    renderRoutes([{ path: '/profile', element: <MyCertificates /> }], '/profile')
    const section = await screen.findByRole('region', { name: 'Certificados' })
    const list = await within(section).findByRole('list', { name: 'Meus certificados' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(4)
    expect(within(list).getByRole('link', { name: 'Ver certificado de Dermatologia veterinária' })).toHaveAttribute('href', '/cursos/c1/certificado')
    expect(within(list).getByText('Revogado')).toBeInTheDocument()
    const years = within(section).getAllByRole('term').map((t) => t.parentElement!.textContent)
    expect(years).toEqual(['2026: 18 horas', '2025: 4 horas'])
  })

  it('invites to the catalogue when there is none', async () => {
    fakeCoursesApi({ certificates: [] })
    renderRoutes([{ path: '/profile', element: <MyCertificates /> }], '/profile')
    expect(await screen.findByText(/Você ainda não tem certificados/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Explorar cursos' })).toHaveAttribute('href', '/cursos')
  })
})
