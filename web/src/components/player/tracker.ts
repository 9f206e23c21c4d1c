import type { Span } from './types'

/**
 * Largest step between two time updates of a playing video that still counts
 * as continuous playback. Players report 4 times a second (YouTube and Vimeo a
 * little less often), at up to 2× speed; a larger jump is a seek, which plays
 * nothing.
 */
export const MAX_STEP_SECONDS = 3

const round = (n: number) => Math.round(n * 10) / 10

/** Sorted, overlapping and touching spans joined, empty ones dropped. */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = spans.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0])
  const out: Span[] = []
  for (const [a, b] of sorted) {
    const last = out[out.length - 1]
    if (last && a <= last[1]) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

/**
 * What the learner actually played since the last report, from the player's
 * time updates: continuous playback grows the open span, a seek or a pause
 * closes it. The server merges the spans and completes the lesson at 90 % of
 * its seconds, so scrubbing to the end completes nothing.
 */
export class WatchTracker {
  /** The playhead (resume point), in seconds. */
  position: number
  private pending: Span[] = []
  private openStart: number | null = null
  private last: number | null = null

  constructor(startAt = 0) {
    this.position = startAt
  }

  /** One time update: t is the playhead, playing whether the media is playing (not paused, not seeking). */
  tick(t: number, playing: boolean): void {
    if (!Number.isFinite(t) || t < 0) return
    this.position = t
    if (!playing) {
      this.close()
      this.last = null
      return
    }
    if (this.last !== null && t >= this.last && t - this.last <= MAX_STEP_SECONDS) {
      if (this.openStart === null) this.openStart = this.last
    } else {
      this.close()
    }
    this.last = t
  }

  /**
   * Paused or ended at t: the playback since the last time update counts up
   * to t (the last update of a short video may come half a second before its
   * end). A seek is not a stop: its target goes through tick.
   */
  stop(t: number): void {
    if (Number.isFinite(t) && this.last !== null && t >= this.last && t - this.last <= MAX_STEP_SECONDS) {
      if (this.openStart === null) this.openStart = this.last
      this.last = t
    }
    this.tick(t, false)
  }

  private close(): void {
    if (this.openStart !== null && this.last !== null && this.last > this.openStart) this.pending.push([this.openStart, this.last])
    this.openStart = null
  }

  /**
   * The spans to report (merged, in tenths of a second), forgetting them; a
   * span still growing is cut at the playhead and goes on from there.
   */
  take(): Span[] {
    const spans = [...this.pending]
    if (this.openStart !== null && this.last !== null && this.last > this.openStart) {
      spans.push([this.openStart, this.last])
      this.openStart = this.last
    }
    this.pending = []
    return mergeSpans(spans.map(([a, b]) => [round(a), round(b)]))
  }

  /** Spans a failed report did not deliver: sent again with the next one. */
  putBack(spans: Span[]): void {
    this.pending.push(...spans)
  }
}
