import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { usePointsBalance } from '@/features/pontos'
import { course, fakeCoursesApi, installBrowserGaps, lesson, renderRoutes, type FakeCourse } from '../test/fakeCoursesApi'
import CoursePage from './CoursePage'
import LessonPage from './LessonPage'

/** Stands in for the top bar's VetCoins badge (the same query). */
function PointsBadge() {
  const total = usePointsBalance().data?.total_points
  return <p>{total ?? '-'} VetCoins</p>
}

function renderPage(path = '/cursos/c1', options: { noRetry?: boolean } = {}) {
  return renderRoutes(
    [
      {
        path: '/cursos/:id',
        element: (
          <>
            <PointsBadge />
            <CoursePage />
          </>
        ),
      },
      { path: '/cursos/:id/aula/:lessonId', element: <LessonPage /> },
      { path: '/cursos/:id/certificado', element: <p>Certificado</p> },
      { path: '/pricing', element: <p>Planos</p> },
    ],
    path,
    options,
  )
}

function emergencias(overrides: Partial<FakeCourse> = {}): FakeCourse {
  return course('c1', {
    title: 'Emergências em pequenos animais',
    description: 'Do atendimento inicial à estabilização.',
    duration: '6h',
    video_intro: { source: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    what_you_will_learn: ['Triagem no pronto atendimento', 'Fluidoterapia de choque'],
    requirements: ['Graduação em medicina veterinária'],
    objectives: ['Estabilizar o paciente crítico'],
    students: 12,
    modules: [
      {
        id: 'm1',
        title: 'Triagem',
        description: '',
        order: 1,
        duration: '25min',
        duration_seconds: 1500,
        lessons: [lesson('l1', { title: 'Boas-vindas', is_free: true, duration: '5min', duration_seconds: 300 }), lesson('l2', { title: 'Avaliação primária', order: 2, duration: '20min', duration_seconds: 1200 })],
      },
      {
        id: 'm2',
        title: 'Choque',
        description: '',
        order: 2,
        duration: '30min',
        duration_seconds: 1800,
        lessons: [lesson('l3', { title: 'Fluidoterapia' }), lesson('l4', { title: 'Leituras extras', order: 2, is_optional: true })],
      },
    ],
    ...overrides,
  })
}

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('CoursePage', () => {
  it('shows the intro video, what you will learn, requirements, objectives, curriculum and instructor', async () => {
    fakeCoursesApi({ courses: [emergencias()] })
    renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Emergências em pequenos animais' })).toBeInTheDocument()
    const intro = within(screen.getByRole('region', { name: 'Vídeo de apresentação' })).getByTitle('Apresentação: Emergências em pequenos animais')
    expect(intro.getAttribute('src')).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?/)
    expect(within(screen.getByRole('region', { name: 'O que você vai aprender' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Triagem no pronto atendimento',
      'Fluidoterapia de choque',
    ])
    expect(screen.getByRole('region', { name: 'Requisitos' })).toHaveTextContent('Graduação em medicina veterinária')
    expect(screen.getByRole('region', { name: 'Objetivos' })).toHaveTextContent('Estabilizar o paciente crítico')
    expect(screen.getByText('Dra. Ana Lima', { selector: 'span' })).toBeInTheDocument()
    expect(screen.getByText('Médica veterinária, MSc')).toBeInTheDocument()

    // Curriculum: the first module open, the second closed until asked.
    const curriculum = screen.getByRole('region', { name: 'Conteúdo do curso' })
    const m1 = within(curriculum).getByRole('button', { name: /Módulo 1: Triagem/ })
    const m2 = within(curriculum).getByRole('button', { name: /Módulo 2: Choque/ })
    expect(m1).toHaveAttribute('aria-expanded', 'true')
    expect(m2).toHaveAttribute('aria-expanded', 'false')
    const triagem = within(curriculum).getByRole('list', { name: 'Aulas do módulo Triagem' })
    // Not enrolled: only the free lesson opens.
    expect(within(triagem).getByRole('link', { name: /Boas-vindas/ })).toHaveAttribute('href', '/cursos/c1/aula/l1')
    expect(within(triagem).getByText('Grátis')).toBeInTheDocument()
    expect(within(triagem).getByText('20min')).toBeInTheDocument()
    expect(within(triagem).queryByRole('link', { name: /Avaliação primária/ })).toBeNull()
    expect(within(triagem).getByRole('img', { name: 'Bloqueada' })).toBeInTheDocument()
    await userEvent.click(m2)
    expect(m2).toHaveAttribute('aria-expanded', 'true')
    expect(within(curriculum).getByRole('list', { name: 'Aulas do módulo Choque' })).toHaveTextContent('Opcional')
  })

  it("enrols with 'Matricular-se': +50 VetCoins in the badge, progress and 'Continuar' to the first lesson", async () => {
    const api = fakeCoursesApi({ courses: [emergencias()] })
    renderPage()
    expect(await screen.findByText('0 VetCoins')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: 'Matricular-se' }))
    expect(await screen.findByText('Matrícula realizada com sucesso!')).toBeInTheDocument()
    expect(screen.getByText('+50 VetCoins')).toBeInTheDocument()
    expect(await screen.findByText('50 VetCoins')).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Progresso no curso' })).toHaveAttribute('aria-valuenow', '0')
    expect(screen.getByRole('link', { name: 'Continuar' })).toHaveAttribute('href', '/cursos/c1/aula/l1')
    expect(screen.queryByRole('button', { name: 'Matricular-se' })).toBeNull()
    expect(screen.getByText('13 alunos')).toBeInTheDocument()
    // Every lesson opens now.
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Aulas do módulo Triagem' })).getAllByRole('link')).toHaveLength(2))
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/api/cursos/c1/matricula')).toHaveLength(1)
  })

  it("refuses past the plan's limit with the reason and a way to /pricing", async () => {
    fakeCoursesApi({ courses: [emergencias()], enrolLimitReached: true })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: 'Matricular-se' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Você atingiu o limite de cursos do seu plano. Assine o Premium para se matricular em mais cursos.')
    expect(within(alert).getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
  })

  it("says 'Erro ao matricular no curso' when the server fails", async () => {
    fakeCoursesApi({ courses: [emergencias()] }, { fail: (c) => c.path.endsWith('/matricula') && { status: 500, body: { error: { code: 'x', message: 'x' } } } })
    renderPage('/cursos/c1', { noRetry: true })
    await userEvent.click(await screen.findByRole('button', { name: 'Matricular-se' }))
    expect(await screen.findByText('Erro ao matricular no curso')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Matricular-se' })).toBeInTheDocument()
  })

  it("'Continuar' opens the first unfinished required lesson at its saved position", async () => {
    const c = emergencias({ is_enrolled: true })
    c.modules[0]!.lessons[0]!.is_completed = true
    c.modules[0]!.lessons[1]!.position_seconds = 125
    fakeCoursesApi({ courses: [c] })
    renderPage()
    const curriculum = await screen.findByRole('region', { name: 'Conteúdo do curso' })
    expect(within(curriculum).getByRole('img', { name: 'Concluída' })).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Progresso no curso' })).toHaveAttribute('aria-valuenow', '33')
    expect(screen.getByText('1 de 3 aulas obrigatórias concluídas')).toBeInTheDocument()
    const cont = screen.getByRole('link', { name: 'Continuar' })
    expect(cont).toHaveAttribute('href', '/cursos/c1/aula/l2')
    await userEvent.click(cont)
    expect(await screen.findByRole('heading', { level: 1, name: 'Avaliação primária' })).toBeInTheDocument()
    const video = screen.getByLabelText('Avaliação primária') as HTMLVideoElement
    Object.defineProperty(video, 'duration', { configurable: true, value: 1200 })
    fireEvent(video, new Event('loadedmetadata'))
    expect(video.currentTime).toBe(125)
  })

  it('shows a completed course with its certificate', async () => {
    const c = emergencias({ is_enrolled: true, is_completed: true, progress: 100 })
    c.my_certificate = {
      code: 'ABC',
      course_id: 'c1',
      course_title: c.title,
      learner_name: 'Dra. Lia Prado',
      hours: 6,
      issued_at: '2026-11-01T12:00:00Z',
      status: 'valid',
      revoked_at: null,
      verify_url: '/certificados/ABC',
      html_url: '/api/certificados/ABC/imprimir',
      pdf_url: '/api/certificados/ABC/pdf',
    }
    fakeCoursesApi({ courses: [c] })
    renderPage()
    expect(await screen.findByText('Curso concluído')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver certificado' })).toHaveAttribute('href', '/cursos/c1/certificado')
    expect(screen.getByRole('link', { name: 'Revisar aulas' })).toHaveAttribute('href', '/cursos/c1/aula/l1')
  })

  it('toggles the favorite from the course page', async () => {
    const api = fakeCoursesApi({ courses: [emergencias()] })
    renderPage()
    const fav = await screen.findByRole('button', { name: 'Favoritar' })
    expect(fav).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(fav)
    expect(fav).toHaveAttribute('aria-pressed', 'true')
    await waitFor(() => expect(api.state.courses[0]!.is_favorite).toBe(true))
  })

  it("says 'Curso não encontrado.' for an unknown course", async () => {
    fakeCoursesApi({ courses: [] })
    renderPage('/cursos/nada')
    expect(await screen.findByText('Curso não encontrado.')).toBeInTheDocument()
  })
})
