import { describe, expect, it } from 'vitest'
import { actionLabel, channelLabel, transitionLabel } from './labels'

describe('editorial labels', () => {
  it('names actions, channels and transitions in pt-BR', () => {
    expect(actionLabel('request_changes')).toBe('Alterações solicitadas')
    expect(actionLabel('scheduled_publish')).toBe('Publicado no horário agendado')
    expect(channelLabel('backoffice')).toBe('Backoffice')
    expect(transitionLabel('em_revisao', 'aprovado')).toBe('Em revisão → Aprovado')
    expect(transitionLabel(undefined, 'rascunho')).toBe('Rascunho')
  })

  it('shows a code it does not know as it is', () => {
    expect(actionLabel('something_new')).toBe('something_new')
    expect(transitionLabel('x', 'y')).toBe('x → y')
  })
})
