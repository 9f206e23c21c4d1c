import { describe, expect, it } from 'vitest'
import { resumeAt } from '@/components/player/embed'
import { VIEW_AFTER_SECONDS, viewThreshold } from './viewRule'

describe('the 30-second rule', () => {
  it('a view is 30 s of playback, or the whole of a shorter video', () => {
    expect(viewThreshold(600)).toBe(VIEW_AFTER_SECONDS)
    expect(viewThreshold(30)).toBe(30)
    // A 6 s clip counts once watched to its end (time updates miss up to a second).
    expect(viewThreshold(6)).toBe(5)
    expect(viewThreshold(6)).toBeLessThanOrEqual(6)
    expect(viewThreshold(1)).toBe(0.5)
    // Unknown length: the full 30 s.
    expect(viewThreshold(0)).toBe(30)
    expect(viewThreshold(Number.NaN)).toBe(30)
  })

  it('a video watched to its end opens again from the start', () => {
    expect(resumeAt(6, 6)).toBe(0)
    expect(resumeAt(598, 600)).toBe(0)
    expect(resumeAt(120.7, 600)).toBe(120)
  })
})
