import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { course, fakeCoursesApi, installBrowserGaps, lesson, renderRoutes } from '../test/fakeCoursesApi'
import { LastCourseCard } from './LastCourseCard'

const render = () => renderRoutes([{ path: '/', element: <LastCourseCard /> }], '/', { noRetry: true })

beforeEach(() => installBrowserGaps())
afterEach(() => vi.unstubAllGlobals())

describe('LastCourseCard', () => {
  it("invites to browse when no course was started", async () => {
    fakeCoursesApi({ lastCourseId: null })
    render()
    const card = screen.getByRole('region', { name: 'Continue de onde parou' })
    expect(await within(card).findByText('Você ainda não iniciou nenhum curso. Escolha um curso e acompanhe seu progresso por aqui.')).toBeInTheDocument()
    expect(within(card).getByRole('link', { name: 'Explorar cursos' })).toHaveAttribute('href', '/cursos')
  })

  it('does not tell a member who holds a certificate that they never started a course', async () => {
    fakeCoursesApi({
      lastCourseId: null,
      certificates: [
        {
          code: 'CODEC1',
          course_id: 'c1',
          course_title: 'Gestão de clínicas',
          learner_name: 'Dra. Lia Prado',
          hours: 2,
          issued_at: '2026-11-01T12:00:00Z',
          status: 'valid',
          revoked_at: null,
          verify_url: '/certificados/CODEC1',
          html_url: '/api/certificados/CODEC1/imprimir',
          pdf_url: '/api/certificados/CODEC1/pdf',
        },
      ],
    })
    render()
    const card = screen.getByRole('region', { name: 'Continue de onde parou' })
    expect(await within(card).findByText('Você concluiu todos os cursos que iniciou. Escolha o próximo e acompanhe seu progresso por aqui.')).toBeInTheDocument()
    expect(within(card).queryByText(/ainda não iniciou/)).not.toBeInTheDocument()
    expect(within(card).getByRole('link', { name: 'Explorar cursos' })).toHaveAttribute('href', '/cursos')
  })

  it("shows the course last studied with its progress and 'Continuar' to the next lesson", async () => {
    const c = course('c1', {
      title: 'Gestão de clínicas',
      is_enrolled: true,
      modules: [{ id: 'm1', title: 'M', description: '', order: 1, duration: '', duration_seconds: 0, lessons: [lesson('l1', { is_completed: true }), lesson('l2', { position_seconds: 40 })] }],
    })
    fakeCoursesApi({ courses: [c], lastCourseId: 'c1' })
    render()
    const card = screen.getByRole('region', { name: 'Continue de onde parou' })
    expect(await within(card).findByText('Gestão de clínicas')).toBeInTheDocument()
    expect(within(card).getByRole('progressbar', { name: 'Progresso em Gestão de clínicas' })).toHaveAttribute('aria-valuenow', '50')
    expect(within(card).getByText('50% concluído')).toBeInTheDocument()
    expect(within(card).getByRole('link', { name: 'Continuar' })).toHaveAttribute('href', '/cursos/c1/aula/l2')
  })

  it("says 'Erro ao carregar cursos' when the read fails", async () => {
    fakeCoursesApi({}, { fail: (c) => c.path === '/api/cursos/ultimo' && { status: 500, body: { error: { code: 'x', message: 'x' } } } })
    render()
    expect(await screen.findByText('Erro ao carregar cursos')).toBeInTheDocument()
  })
})
