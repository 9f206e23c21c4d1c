import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Wifi, WifiOff } from 'lucide-react'
import { RESTORED_BANNER_MS, useOnlineStatus } from './connectivity'

/**
 * Red banner while offline; green 'restored' banner for 5 s after coming
 * back. It sits in the page's flow above everything (public pages move down
 * under it) and publishes its height as --banner-h, so the signed-in layout's
 * fixed top bar, sidebar and drawer start below it: no button is ever
 * covered.
 */
export function ConnectivityBanner() {
  const online = useOnlineStatus()
  const [showRestored, setShowRestored] = useState(false)
  const wasOffline = useRef(false)

  useEffect(() => {
    if (!online) {
      wasOffline.current = true
      setShowRestored(false)
      return
    }
    if (!wasOffline.current) return
    wasOffline.current = false
    setShowRestored(true)
    const timer = setTimeout(() => setShowRestored(false), RESTORED_BANNER_MS)
    return () => clearTimeout(timer)
  }, [online])

  const ref = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const root = document.documentElement
    // The height comes from the observer, which reports it after the
    // browser's own layout and before the paint: reading offsetHeight here
    // would force a layout of the whole page in the middle of the first
    // render. The property is written only when the height changes, and is
    // absent (the layout's 0px fallback) while the banner is empty, since
    // every write restyles the whole document.
    let published = 0
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return
      const height = Math.round(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height)
      if (height === published) return
      published = height
      if (height) root.style.setProperty('--banner-h', `${height}px`)
      else root.style.removeProperty('--banner-h')
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      root.style.removeProperty('--banner-h')
    }
  }, [])

  return (
    <div ref={ref} role="status" aria-live="polite" className="sticky inset-x-0 top-0 z-[90] flex justify-center">
      {!online && (
        <p className="flex w-full items-center justify-center gap-2 bg-red-700 px-4 py-2 text-center text-sm font-medium text-white">
          <WifiOff aria-hidden="true" className="h-4 w-4 shrink-0" />
          Você está offline. Algumas funcionalidades podem não estar disponíveis.
        </p>
      )}
      {online && showRestored && (
        <p className="flex w-full items-center justify-center gap-2 bg-green-700 px-4 py-2 text-center text-sm font-medium text-white">
          <Wifi aria-hidden="true" className="h-4 w-4 shrink-0" />
          Conexão restaurada! Você está online novamente.
        </p>
      )}
    </div>
  )
}
