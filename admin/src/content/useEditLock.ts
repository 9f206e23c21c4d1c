import { useCallback, useEffect, useRef, useState } from 'react'
import { lock, lockTokens } from './api'

export type LockState =
  | { state: 'pending' }
  | { state: 'mine' }
  | { state: 'held'; holderId: string; holderName: string }
  | { state: 'lost' }
  /** Given up by sending the item for review (the server freed it). */
  | { state: 'released' }
  | { state: 'failed' }

/** The server lets a lock expire 5 min after its last heartbeat; one a minute keeps it. */
export const HEARTBEAT_MS = 60_000

/**
 * Takes the item's edit lock while the page is open, renews it, and lets the
 * editor take it over from someone else; when another editor takes it over,
 * the state turns 'lost' (the server refuses this tab's next save).
 */
export function useEditLock(type: string, id: string | undefined) {
  const [lockState, setLockState] = useState<LockState>({ state: 'pending' })
  const mine = useRef(false)

  const apply = useCallback(
    (l: Awaited<ReturnType<typeof lock>>) => {
      if (!id || !l) return
      if (l.mine && l.token) {
        lockTokens.set(id, l.token)
        mine.current = true
        setLockState({ state: 'mine' })
      } else {
        mine.current = false
        setLockState({ state: 'held', holderId: l.holder_id, holderName: l.holder_name ?? '' })
      }
    },
    [id],
  )

  useEffect(() => {
    if (!id) return
    let cancelled = false
    lock(type, id, 'acquire')
      .then((l) => !cancelled && apply(l))
      .catch(() => !cancelled && setLockState({ state: 'failed' }))
    const beat = setInterval(() => {
      if (!mine.current) return
      lock(type, id, 'heartbeat').catch(() => {
        mine.current = false
        lockTokens.delete(id)
        setLockState({ state: 'lost' })
      })
    }, HEARTBEAT_MS)
    return () => {
      cancelled = true
      clearInterval(beat)
      if (mine.current) {
        lock(type, id, 'release').catch(() => undefined)
        lockTokens.delete(id)
        mine.current = false
      }
    }
  }, [type, id, apply])

  const takeOver = useCallback(async () => {
    if (!id) return
    apply(await lock(type, id, 'takeover'))
  }, [type, id, apply])

  /** The server released this tab's lock (sent for review): stop renewing it. */
  const released = useCallback(() => {
    if (!id || !mine.current) return
    mine.current = false
    lockTokens.delete(id)
    setLockState({ state: 'released' })
  }, [id])

  return { lock: lockState, takeOver, released }
}
