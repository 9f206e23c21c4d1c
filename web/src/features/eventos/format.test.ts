import { describe, expect, it } from 'vitest'
import { formatEventDate, formatEventTime, inViewerZone, monthLabel, placeLabel, seatsLabel, shortMoment, typeBadgeClass } from './format'

describe('event badge colours', () => {
  it('Workshop is blue, Intensivo purple, Congresso green, others gray', () => {
    expect(typeBadgeClass('Workshop')).toContain('bg-blue-100')
    expect(typeBadgeClass('Intensivo')).toContain('bg-purple-100')
    expect(typeBadgeClass('Congresso')).toContain('bg-green-100')
    for (const other of ['Palestra', 'Webinar', 'Outro', '', 'workshop']) {
      expect(typeBadgeClass(other)).toContain('bg-gray-100')
    }
  })
})

describe('event date and time formats', () => {
  it("dates are 'dd de MMMM' in pt-BR", () => {
    expect(formatEventDate('2026-12-05')).toBe('05 de dezembro')
    expect(formatEventDate('2027-03-21')).toBe('21 de março')
    expect(formatEventDate('2027-01-01')).toBe('01 de janeiro')
    expect(formatEventDate('nope')).toBe('')
    expect(formatEventDate('2027-13-01')).toBe('')
  })
  it('times are HH:mm', () => {
    expect(formatEventTime('09:05')).toBe('09:05')
    expect(formatEventTime('19:30:00')).toBe('19:30')
    expect(formatEventTime('9h')).toBe('')
  })
  it('months read as words', () => {
    expect(monthLabel('2026-12')).toBe('dezembro de 2026')
  })
  it('shows the start in the viewer zone only when it differs', () => {
    const e = { starts_at: '2026-12-05T22:30:00Z', time_zone: 'America/Sao_Paulo' }
    expect(inViewerZone(e, 'America/Sao_Paulo')).toBe('')
    expect(inViewerZone(e, 'America/Manaus')).toBe('18:30 no seu fuso (America/Manaus), 05 de dezembro')
    expect(inViewerZone(e, 'Europe/Lisbon')).toBe('22:30 no seu fuso (Europe/Lisbon), 05 de dezembro')
    expect(inViewerZone(e, 'Asia/Tokyo')).toBe('07:30 no seu fuso (Asia/Tokyo), 06 de dezembro')
    expect(shortMoment('2026-12-05T22:30:00Z', 'America/Sao_Paulo')).toBe('05/12 às 19:30')
  })
})

describe('place and seats', () => {
  it("shows the place or 'Online'", () => {
    expect(placeLabel({ online: true, location: 'Sala 1' })).toBe('Online')
    expect(placeLabel({ online: false, location: 'Sala 1' })).toBe('Sala 1')
  })
  it("shows seats left or 'Esgotado'", () => {
    expect(seatsLabel({ seats_left: 0 })).toBe('Esgotado')
    expect(seatsLabel({ seats_left: 1 })).toBe('1 vaga restante')
    expect(seatsLabel({ seats_left: 12 })).toBe('12 vagas restantes')
    expect(seatsLabel({ seats_left: null })).toBe('')
  })
})
