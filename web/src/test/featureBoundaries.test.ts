// @vitest-environment node
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint rule that keeps features apart, run through the app's real ESLint
// configuration: what it refuses, and what it lets through.
const cwd = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({ cwd })
// Plugin views (plugins/<id>/web/) are linted from the repository root with this configuration.
const rootLint = new ESLint({ cwd: fileURLToPath(new URL('../../..', import.meta.url)), overrideConfigFile: fileURLToPath(new URL('../../eslint.config.js', import.meta.url)) })

async function boundaryErrors(filePath: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'feature-boundaries/public-surface').map((m) => m.message)
}

describe('feature boundaries (eslint.config.js)', () => {
  it("refuses an import that reaches inside another feature, however it is written", { timeout: 60_000 }, async () => {
    const code = [
      "import { useNextEvent } from '../eventos/api'",
      "import { LastCourseCard } from '@/features/cursos/components/LastCourseCard'",
      "export { useMyProfile } from '@/features/profile/api'",
      "import { vi } from 'vitest'",
      "vi.mock('@/features/videos/api', () => ({}))",
      "export const x = [useNextEvent, LastCourseCard, () => import('../../features/cursos/pages/CoursePage')]",
      '',
    ].join('\n')
    const errors = await boundaryErrors('src/features/home/Probe.tsx', code)
    expect(errors).toHaveLength(5)
    expect(errors[0]).toContain("reaches inside the feature 'eventos'")
  })

  it('refuses the same from a tool plugin', { timeout: 60_000 }, async () => {
    const errors = await boundaryErrors('plugins/probe/web/View.tsx', "import { toolFetch } from '@/features/ferramentas/api'\nexport const f = toolFetch\n", rootLint)
    expect(errors).toEqual([expect.stringContaining("reaches inside the feature 'ferramentas'")])
  })

  it("lets through another feature's index, the feature's own files and the shared code", { timeout: 60_000 }, async () => {
    const code = [
      "import { useNextEvent } from '@/features/eventos'",
      "import { usePointsBalance } from '../pontos'",
      "import { useLastCourse } from '../cursos/api'",
      "import { displayName } from '@/lib/names'",
      "import { VideoPlayer } from '@/components/player/VideoPlayer'",
      'export const x = [useNextEvent, usePointsBalance, useLastCourse, displayName, VideoPlayer]',
      '',
    ].join('\n')
    expect(await boundaryErrors('src/features/cursos/Probe.tsx', code)).toEqual([])
  })

  it("lets the app shell route to a feature's pages", { timeout: 60_000 }, async () => {
    const code = "export const CoursePage = () => import('@/features/cursos/pages/CoursePage')\n"
    expect(await boundaryErrors('src/app/Probe.tsx', code)).toEqual([])
  })
})
