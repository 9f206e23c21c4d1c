import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { SafeMarkdown, safeHref } from './SafeMarkdown'

function renderMd(source: string) {
  const { container } = render(<SafeMarkdown source={source} />)
  return container
}

describe('SafeMarkdown', () => {
  it('renders bold, italic, lists and line breaks', () => {
    const c = renderMd('**Caso** de *hoje*\nsegunda linha\n\n- um\n- dois\n\n1. primeiro')
    expect(c.querySelector('strong')).toHaveTextContent('Caso')
    expect(c.querySelector('em')).toHaveTextContent('hoje')
    expect(c.querySelector('p br')).not.toBeNull()
    expect(c.querySelectorAll('ul li')).toHaveLength(2)
    expect(c.querySelectorAll('ol li')).toHaveLength(1)
  })

  it('opens safe links in a new tab without passing the opener or ranking', () => {
    renderMd('[Artigo](https://exemplo.com/a) e https://vet.org/caso?id=1. Fim <mailto:ana@vet.org>')
    const link = screen.getByRole('link', { name: 'Artigo' })
    expect(link).toHaveAttribute('href', 'https://exemplo.com/a')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow')
    // A bare address becomes a link without the sentence's full stop.
    expect(screen.getByRole('link', { name: 'https://vet.org/caso?id=1' })).toHaveAttribute('href', 'https://vet.org/caso?id=1')
    expect(screen.getByRole('link', { name: 'mailto:ana@vet.org' })).toHaveAttribute('href', 'mailto:ana@vet.org')
  })

  it.each([
    ['<img src=x onerror=alert(1)>'],
    ['<script>alert(1)</script>'],
    ['<a href="javascript:alert(1)">x</a>'],
    ['<iframe src="https://evil.example"></iframe>'],
    ['<div onmouseover="alert(1)">oi</div>'],
  ])('shows raw HTML as inert text: %s', (payload) => {
    const c = renderMd(`antes ${payload} depois`)
    expect(c.querySelector('img, script, iframe, [onerror], [onmouseover]')).toBeNull()
    expect(c.querySelector('a')).toBeNull()
    expect(c).toHaveTextContent('antes')
    expect(c).toHaveTextContent('depois')
  })

  it.each([
    ['[x](javascript:alert(1))'],
    ['[x](JaVaScRiPt:alert(1))'],
    ['[x](&#106;avascript:alert(1))'],
    ['[x](java\tscript:alert(1))'],
    ['[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['[x](vbscript:msgbox(1))'],
    ['[x](/relativo)'],
    ['<javascript:alert(1)>'],
  ])('renders unsafe link targets as plain text: %s', (payload) => {
    const c = renderMd(payload)
    expect(c.querySelector('a')).toBeNull()
    expect(c.querySelector('[href]')).toBeNull()
  })

  it('drops images and reduces headings and code to text', () => {
    const c = renderMd('# Título\n\n![foto](https://x.example/a.png)\n\n`code`')
    expect(c.querySelector('img, h1, code, pre')).toBeNull()
    expect(c).toHaveTextContent('Título')
    expect(c).toHaveTextContent('code')
  })

  it('safeHref accepts only absolute http, https and mailto', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x')
    expect(safeHref(' http://a.example ')).toBe('http://a.example/')
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c')
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeHref('//evil.example')).toBeNull()
    expect(safeHref('ftp://a.example')).toBeNull()
  })
})
