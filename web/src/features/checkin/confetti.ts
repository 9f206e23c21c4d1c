// Confetti presets: basic 50 pieces, stars 30, celebration 40 and
// another 100 after 200 ms. Pieces are DOM nodes animated with the Web
// Animations API, removed when they land; nothing runs when the user asks
// for reduced motion.

export type ConfettiPreset = 'basic' | 'stars' | 'celebration'

const COLORS = ['#0f766e', '#14b8a6', '#f59e0b', '#fbbf24', '#f43f5e', '#6366f1']

function burst(count: number, shape: 'square' | 'star'): void {
  if (typeof document === 'undefined') return
  const layer = document.createElement('div')
  layer.setAttribute('aria-hidden', 'true')
  layer.dataset.confetti = String(count)
  layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;overflow:hidden;z-index:70'
  document.body.appendChild(layer)
  let pending = count
  for (let i = 0; i < count; i++) {
    const piece = document.createElement('span')
    const size = 6 + Math.random() * 6
    const color = COLORS[i % COLORS.length]
    piece.textContent = shape === 'star' ? '★' : ''
    piece.style.cssText =
      shape === 'star'
        ? `position:absolute;left:50%;top:40%;font-size:${size * 2}px;color:${color};line-height:1`
        : `position:absolute;left:50%;top:40%;width:${size}px;height:${size * 0.6}px;background:${color};border-radius:1px`
    layer.appendChild(piece)
    const angle = Math.random() * Math.PI * 2
    const distance = 120 + Math.random() * 260
    const dx = Math.cos(angle) * distance
    const dy = Math.sin(angle) * distance * 0.6
    const fall = 260 + Math.random() * 240
    const animation = piece.animate?.(
      [
        { transform: 'translate(0,0) rotate(0deg)', opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) rotate(${Math.random() * 360}deg)`, opacity: 1, offset: 0.4 },
        { transform: `translate(${dx * 1.2}px, ${dy + fall}px) rotate(${Math.random() * 720}deg)`, opacity: 0 },
      ],
      { duration: 1400 + Math.random() * 800, easing: 'cubic-bezier(.2,.7,.4,1)', fill: 'forwards' },
    )
    const done = () => {
      piece.remove()
      if (--pending === 0) layer.remove()
    }
    if (animation) animation.onfinish = done
    else done()
  }
}

/** Piece counts per burst, for tests and docs. */
export const CONFETTI_PRESETS: Record<ConfettiPreset, { count: number; then?: { count: number; afterMs: number } }> = {
  basic: { count: 50 },
  stars: { count: 30 },
  celebration: { count: 40, then: { count: 100, afterMs: 200 } },
}

export function fireConfetti(preset: ConfettiPreset): void {
  if (typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return
  const p = CONFETTI_PRESETS[preset]
  const shape = preset === 'stars' ? 'star' : 'square'
  burst(p.count, shape)
  if (p.then) {
    const then = p.then
    setTimeout(() => burst(then.count, shape), then.afterMs)
  }
}
