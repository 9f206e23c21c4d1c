import { useState } from 'react'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import type { PostMedia } from '../api'
import { messages } from '../messages'

/**
 * The comments modal's media: images render, any other kind says
 * 'Mídia não suportada', a post without media says 'Sem mídia'. Arrows (and
 * the ← → keys) move between items.
 */
export function MediaCarousel({ media, initialIndex = 0, owner }: { media: PostMedia[]; initialIndex?: number; owner: string }) {
  const [chosen, setChosen] = useState(initialIndex)
  const count = media.length
  if (count === 0) {
    return <p className="m-auto text-sm text-neutral-300">{messages.noMedia}</p>
  }
  // The post may lose media while open (an edit elsewhere): stay in range.
  const index = Math.min(Math.max(chosen, 0), count - 1)
  const current = media[index]!
  const go = (delta: number) => setChosen((index + delta + count) % count)
  return (
    <div
      role="group"
      aria-roledescription="carrossel"
      aria-label="Mídia da publicação"
      className="relative flex h-full w-full items-center justify-center"
      onKeyDown={(e) => {
        if (count < 2) return
        if (e.key === 'ArrowLeft') go(-1)
        else if (e.key === 'ArrowRight') go(1)
      }}
    >
      <div role="group" aria-roledescription="item" aria-label={`${index + 1} de ${count}`} className="flex h-full w-full items-center justify-center p-2">
        {current.media_type === 'image' ? (
          <img
            key={current.id}
            src={current.url}
            alt={`Imagem ${index + 1} de ${count} da publicação de ${owner}`}
            className="max-h-full max-w-full object-contain"
          />
        ) : (
          <p className="text-sm text-neutral-300">{messages.unsupportedMedia}</p>
        )}
      </div>
      {count > 1 && (
        <>
          <button
            type="button"
            aria-label="Mídia anterior"
            onClick={() => go(-1)}
            className="absolute left-2 top-1/2 -translate-y-1/2 rounded-full bg-black/60 p-2 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
          >
            <ChevronLeft aria-hidden="true" className="h-5 w-5" />
          </button>
          <button
            type="button"
            aria-label="Próxima mídia"
            onClick={() => go(1)}
            className="absolute right-2 top-1/2 -translate-y-1/2 rounded-full bg-black/60 p-2 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-white"
          >
            <ChevronRight aria-hidden="true" className="h-5 w-5" />
          </button>
          <p aria-live="polite" className="absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full bg-black/60 px-2.5 py-0.5 text-xs text-white">
            {index + 1} / {count}
          </p>
        </>
      )}
    </div>
  )
}
