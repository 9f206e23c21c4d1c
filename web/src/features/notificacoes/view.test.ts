import { describe, expect, it } from 'vitest'
import { notification } from './test/fakeApi'
import { badgeLabel, clickAction, relatedUserName, relativeTime } from './view'

describe('badgeLabel', () => {
  it('hides at 0, counts to 9, then shows 9+', () => {
    expect(badgeLabel(0)).toBeNull()
    expect(badgeLabel(1)).toBe('1')
    expect(badgeLabel(9)).toBe('9')
    expect(badgeLabel(10)).toBe('9+')
    expect(badgeLabel(250)).toBe('9+')
  })
})

describe('clickAction', () => {
  it('a like or comment with a post opens the post on /community', () => {
    expect(clickAction(notification('1', { type: 'like', related_post_id: 'p-9' }))).toEqual({ kind: 'navigate', to: '/community?post=p-9' })
    expect(clickAction(notification('2', { type: 'comment', related_post_id: 'p 1' }))).toEqual({ kind: 'navigate', to: '/community?post=p%201' })
  })
  it('a challenge goes to /desafios, the real route', () => {
    expect(clickAction(notification('3', { type: 'challenge', link: '/challenges' }))).toEqual({ kind: 'navigate', to: '/desafios' })
  })
  it('a connection offers its pending request', () => {
    expect(clickAction(notification('4', { type: 'connection', data: { connection_id: 'c-1' } }))).toEqual({ kind: 'connection', connectionId: 'c-1' })
    expect(clickAction(notification('5', { type: 'connection', data: null }))).toEqual({ kind: 'connection', connectionId: null })
  })
  it('others follow their in-app link, never another site', () => {
    expect(clickAction(notification('6', { type: 'course', link: '/cursos/7' }))).toEqual({ kind: 'navigate', to: '/cursos/7' })
    expect(clickAction(notification('7', { type: 'like', related_post_id: null, link: '/pontos' }))).toEqual({ kind: 'navigate', to: '/pontos' })
    expect(clickAction(notification('8', { type: 'system', link: 'https://example.com' }))).toEqual({ kind: 'none' })
    expect(clickAction(notification('9', { type: 'system', link: '//example.com/x' }))).toEqual({ kind: 'none' })
    expect(clickAction(notification('10', { type: 'system', link: null }))).toEqual({ kind: 'none' })
  })
})

describe('relatedUserName and relativeTime', () => {
  it('names the related user, or nobody', () => {
    expect(relatedUserName(notification('1'))).toBe('Ana Souza')
    expect(relatedUserName(notification('2', { related_user: { id: 'x', first_name: null, last_name: ' ', avatar_url: null } }))).toBe('Usuário')
    expect(relatedUserName(notification('3', { related_user: null }))).toBeNull()
  })
  it('says how long ago in pt-BR', () => {
    const now = Date.parse('2026-03-20T12:00:00Z')
    expect(relativeTime('2026-03-20T11:59:30Z', now)).toBe('agora')
    expect(relativeTime('2026-03-20T11:55:00Z', now)).toBe('há 5 minutos')
    expect(relativeTime('2026-03-20T10:00:00Z', now)).toBe('há 2 horas')
    expect(relativeTime('2026-03-19T10:00:00Z', now)).toBe('ontem')
    expect(relativeTime('2026-03-17T10:00:00Z', now)).toBe('há 3 dias')
    expect(relativeTime('2026-03-01T10:00:00Z', now)).toMatch(/^01 de mar/)
  })
})
