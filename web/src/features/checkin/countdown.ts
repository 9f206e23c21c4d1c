/** 'Xh Ym' until `target` (local midnight), never negative. */
export function formatCountdown(target: Date, now: Date): string {
  const minutes = Math.max(0, Math.ceil((target.getTime() - now.getTime()) / 60_000))
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return `${h}h ${m}m`
}

/** Week strip: 7 slots, done up to the sequence, the next one clickable when a check-in is possible. */
export interface WeekSlot {
  day: number
  done: boolean
  next: boolean
}

export function weekSlots(sequence: number, canCheckIn: boolean): WeekSlot[] {
  const done = Math.max(0, Math.min(7, sequence))
  return Array.from({ length: 7 }, (_, i) => ({ day: i + 1, done: i < done, next: canCheckIn && i === done }))
}
