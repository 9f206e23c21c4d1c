// Static sounds for a check-in and a completed streak, played at volume 0.4. Autoplay rules may
// refuse playback; a check-in never fails because of a sound.
export const SOUND_VOLUME = 0.4

export type Sound = 'basic-success' | 'celebration-fanfare'

export function playSound(sound: Sound): void {
  if (typeof Audio === 'undefined') return
  try {
    const audio = new Audio(`/sounds/${sound}.mp3`)
    audio.volume = SOUND_VOLUME
    void audio.play().catch(() => undefined)
  } catch {
    // No audio support: silence is fine.
  }
}
