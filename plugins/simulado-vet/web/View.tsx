import { useLocation } from 'react-router'
import type { ToolViewProps } from '@/features/ferramentas'
import { QuizArea } from './QuizArea'
import { SimuladoExam, SimuladoHistory, SimuladoResult, SimuladoStart } from './Simulado'

/**
 * One plugin serves two tools over the same question bank: Quiz de Área
 * (/ferramentas/quiz-area) and Simulado Vet (/ferramentas/simulado-vet and
 * its sub-pages /quiz, /resultado/<id>, /history, read from the address).
 */
export default function SimuladoVetView({ tool }: ToolViewProps) {
  const { pathname } = useLocation()
  if (tool.slug === 'quiz-area') return <QuizArea />
  const rest = pathname.replace(/^\/ferramentas\/[^/]+\/?/, '')
  if (rest === 'quiz') return <SimuladoExam />
  if (rest === 'history') return <SimuladoHistory />
  const result = /^resultado\/([0-9a-f]{32})$/.exec(rest)
  if (result?.[1]) return <SimuladoResult id={result[1]} />
  return <SimuladoStart />
}
