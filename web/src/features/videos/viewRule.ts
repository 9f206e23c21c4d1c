// When playback of an exclusive video counts as a view.

/** A view counts after this much actual playback (the server counts it once per member per 24 h). */
export const VIEW_AFTER_SECONDS = 30
/** The playback a short video's time updates miss (they come every ~¼ s; the first one after the start). */
const SHORT_VIDEO_SLACK_SECONDS = 1

/**
 * The playback that counts as a view: 30 s, or the whole video when it is
 * shorter (less the time updates' slack). Unknown length: 30 s.
 */
export function viewThreshold(durationSeconds: number): number {
  if (!(durationSeconds > 0) || durationSeconds >= VIEW_AFTER_SECONDS) return VIEW_AFTER_SECONDS
  return Math.max(0.5, durationSeconds - SHORT_VIDEO_SLACK_SECONDS)
}
