import { useEffect } from 'react'

/** Sets document.title to '<title> | VetClube' while the page is shown. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return
    const previous = document.title
    document.title = `${title} | VetClube`
    return () => {
      document.title = previous
    }
  }, [title])
}
