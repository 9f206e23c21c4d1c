import { useState } from 'react'
import { Check, Share2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'

/**
 * The platform's share button: the system share sheet (Web Share API) where
 * there is one, else the link copied to the clipboard: the toast says 'Link
 * copiado!' (once: the button itself just reads 'Copiado' meanwhile).
 */
export function ShareButton({ title, text, url }: { title: string; text?: string; url?: string }) {
  const [copied, setCopied] = useState(false)
  const href = url ?? window.location.href
  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url: href })
        return
      } catch (e) {
        // Closing the sheet is not a failure; anything else falls back to copying.
        if (e instanceof DOMException && e.name === 'AbortError') return
      }
    }
    try {
      await navigator.clipboard.writeText(href)
      setCopied(true)
      toast({ title: 'Link copiado!', variant: 'success' })
      setTimeout(() => setCopied(false), 3000)
    } catch {
      toast({ title: 'Não foi possível copiar o link. Copie o endereço da barra do navegador.', variant: 'error' })
    }
  }
  return (
    <Button variant="outline" size="sm" onClick={share} aria-label="Compartilhar">
      {copied ? <Check aria-hidden className="size-4" /> : <Share2 aria-hidden className="size-4" />}
      {copied ? 'Copiado' : 'Compartilhar'}
    </Button>
  )
}
