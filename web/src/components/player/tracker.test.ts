import { describe, expect, it } from 'vitest'
import { WatchTracker, mergeSpans } from './tracker'

function play(t: WatchTracker, from: number, to: number, step = 0.25) {
  for (let x = from; x <= to + 1e-9; x += step) t.tick(x, true)
}

describe('WatchTracker', () => {
  it('records continuous playback as one span and goes on from the playhead after a report', () => {
    const t = new WatchTracker(0)
    play(t, 0, 10)
    expect(t.take()).toEqual([[0, 10]])
    play(t, 10.25, 20)
    expect(t.take()).toEqual([[10, 20]])
    expect(t.position).toBe(20)
  })

  it('does not count a seek as watched', () => {
    const t = new WatchTracker(0)
    play(t, 0, 5)
    t.tick(5, false) // seeking
    t.tick(590, true)
    play(t, 590, 595)
    expect(t.take()).toEqual([
      [0, 5],
      [590, 595],
    ])
  })

  it('does not count a jump while "playing" (a scrub with no pause event)', () => {
    const t = new WatchTracker(0)
    t.tick(0, true)
    t.tick(300, true)
    t.tick(599, true)
    t.tick(600, true)
    expect(t.take()).toEqual([[599, 600]])
  })

  it('closes the span on pause and reports nothing new afterwards', () => {
    const t = new WatchTracker(30)
    play(t, 30, 40)
    t.tick(40, false)
    expect(t.take()).toEqual([[30, 40]])
    expect(t.take()).toEqual([])
    expect(t.position).toBe(40)
  })

  it('keeps spans a failed report could not deliver', () => {
    const t = new WatchTracker(0)
    play(t, 0, 10)
    const lost = t.take()
    t.putBack(lost)
    play(t, 10.25, 12)
    expect(t.take()).toEqual([[0, 12]])
  })
})

describe('WatchTracker.stop', () => {
  it('counts a short video played to its end from its start to its end', () => {
    // The playing event at 0, time updates every half second at 2×, the
    // last one at 5.7, then ended at 6: all 6 seconds were played.
    const t = new WatchTracker()
    t.tick(0, true)
    for (let s = 0.4; s < 5.8; s += 0.5) t.tick(s, true)
    t.stop(6)
    expect(t.take()).toEqual([[0, 6]])
    expect(t.position).toBe(6)
  })

  it('does not count a jump as played when the stop is far from the last update', () => {
    const t = new WatchTracker()
    t.tick(0, true)
    t.tick(2, true)
    t.stop(40)
    expect(t.take()).toEqual([[0, 2]])
    expect(t.position).toBe(40)
  })

  it('a seek closes the span at the last update, not at the seek target', () => {
    const t = new WatchTracker()
    t.tick(0, true)
    t.tick(2, true)
    t.tick(4, false) // seeking to 4
    t.tick(4, true)
    t.tick(5, true)
    t.stop(5.2)
    expect(t.take()).toEqual([
      [0, 2],
      [4, 5.2],
    ])
  })
})

describe('mergeSpans', () => {
  it('merges overlapping, touching and out-of-order spans and drops empty ones', () => {
    expect(
      mergeSpans([
        [50, 60],
        [0, 10],
        [5, 20],
        [20, 25],
        [30, 30],
      ]),
    ).toEqual([
      [0, 25],
      [50, 60],
    ])
  })
})
