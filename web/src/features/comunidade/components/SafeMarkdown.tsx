import Markdown, { type Components } from 'react-markdown'
import { cn } from '@/lib/cn'

// What a post may format: bold, italic, links, lists and line breaks. Anything
// else (headings, images, code, raw HTML) is reduced to its text. React builds
// every element, so nothing a member writes ever reaches the DOM as HTML.
const ALLOWED_ELEMENTS = ['p', 'strong', 'em', 'a', 'ul', 'ol', 'li', 'br']
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])

/** The link target if it is an absolute http, https or mailto URL; null for anything else (javascript:, data:, relative). */
export function safeHref(url: string): string | null {
  let parsed: URL
  try {
    // The URL parser drops the tabs and newlines that could hide a scheme (java\tscript:).
    parsed = new URL(url.trim())
  } catch {
    return null
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null
}

// A minimal mdast view: only what the plugin below reads and writes.
interface MdNode {
  type: string
  value?: string
  url?: string
  children?: MdNode[]
}

// Bare web addresses in the text, without the punctuation that usually ends a sentence.
const BARE_URL = /\bhttps?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]}]/g

function linkify(text: string): MdNode[] {
  const out: MdNode[] = []
  let last = 0
  for (const m of text.matchAll(BARE_URL)) {
    const at = m.index ?? 0
    if (at > last) out.push({ type: 'text', value: text.slice(last, at) })
    out.push({ type: 'link', url: m[0], children: [{ type: 'text', value: m[0] }] })
    last = at + m[0].length
  }
  if (last < text.length) out.push({ type: 'text', value: text.slice(last) })
  return out
}

function splitText(value: string, inLink: boolean): MdNode[] {
  const out: MdNode[] = []
  value.split('\n').forEach((line, i) => {
    if (i > 0) out.push({ type: 'break' })
    if (!line) return
    if (inLink) out.push({ type: 'text', value: line })
    else out.push(...linkify(line))
  })
  return out
}

function walk(node: MdNode, inLink: boolean): void {
  if (!node.children) return
  const children: MdNode[] = []
  for (const child of node.children) {
    if (child.type === 'text' && child.value !== undefined) {
      children.push(...splitText(child.value, inLink))
    } else {
      walk(child, inLink || child.type === 'link' || child.type === 'linkReference')
      children.push(child)
    }
  }
  node.children = children
}

/**
 * remark plugin: every newline the member typed is a line break (people write
 * posts like messages, not like Markdown documents), and bare http(s)
 * addresses become links (still checked by safeHref).
 */
function remarkBreaksAndLinks() {
  return (tree: MdNode) => walk(tree, false)
}

const components: Components = {
  a: ({ href, children }) => {
    const safe = href ? safeHref(href) : null
    if (!safe) return <span>{children}</span>
    return (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow" className="break-words text-primary underline underline-offset-2">
        {children}
      </a>
    )
  },
}

/** A member's text in the safe Markdown subset. */
export function SafeMarkdown({ source, className }: { source: string; className?: string }) {
  return (
    <div
      className={cn(
        'flex flex-col gap-2 break-words leading-relaxed [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6',
        className,
      )}
    >
      <Markdown
        allowedElements={ALLOWED_ELEMENTS}
        unwrapDisallowed
        remarkPlugins={[remarkBreaksAndLinks]}
        urlTransform={(url, key) => (key === 'href' ? (safeHref(url) ?? '') : '')}
        components={components}
      >
        {source}
      </Markdown>
    </div>
  )
}
