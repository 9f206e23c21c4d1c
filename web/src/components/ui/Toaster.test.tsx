import { act, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Dialog } from './Dialog'
import { Toaster } from './Toaster'
import { dismissToast, toast } from './toast'

// jsdom has neither modal dialogs nor popovers: these stand-ins keep the
// browser's order of the top layer (the element shown last is on top).
const topLayer: Element[] = []
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.open = true
    topLayer.push(this)
  }
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.open = false
    topLayer.splice(topLayer.indexOf(this), 1)
    this.dispatchEvent(new Event('close'))
  }
  HTMLElement.prototype.showPopover = function (this: HTMLElement) {
    this.dataset.popoverOpen = 'true'
    topLayer.push(this)
  }
  HTMLElement.prototype.hidePopover = function (this: HTMLElement) {
    delete this.dataset.popoverOpen
    topLayer.splice(topLayer.indexOf(this), 1)
  }
  const matches = Element.prototype.matches
  vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
    if (selector === ':popover-open') return (this as HTMLElement).dataset.popoverOpen === 'true'
    if (selector === ':modal') return this instanceof HTMLDialogElement && topLayer.includes(this)
    return matches.call(this, selector)
  })
})

afterEach(() => {
  act(() => dismissToast())
  topLayer.length = 0
})

function Page() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Abrir
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Remover conexão">
        <button
          type="button"
          onClick={() => {
            toast.success('Conexão removida')
            setOpen(false)
          }}
        >
          Remover
        </button>
      </Dialog>
      <Toaster />
    </>
  )
}

const toastRegion = () => document.querySelector<HTMLElement>('[data-toaster]')!

describe('Toaster above dialogs', () => {
  it('keeps its live region outside every dialog, on top of the top layer while a dialog is open', () => {
    render(<Page />)
    act(() => screen.getByRole('button', { name: 'Abrir' }).click())
    const dialog = document.querySelector('dialog')!
    // The dialog opened after the (empty) region and raised it back above itself.
    expect(topLayer.at(-1)).toBe(toastRegion())

    act(() => {
      toast('Salvo')
    })
    expect(topLayer.at(-1)).toBe(toastRegion())
    expect(topLayer.indexOf(toastRegion())).toBeGreaterThan(topLayer.indexOf(dialog))
    expect(dialog.contains(toastRegion())).toBe(false)
    expect(toastRegion()).toHaveAttribute('aria-live', 'polite')
    // The dialog's inert-proof copy speaks the words while the dialog is modal.
    expect(dialog.querySelector('[aria-live]')).toHaveTextContent('Salvo')
  })

  it('keeps a toast shown by a dialog after that dialog closes', () => {
    render(<Page />)
    act(() => screen.getByRole('button', { name: 'Abrir' }).click())
    act(() => screen.getByRole('button', { name: 'Remover' }).click())
    expect(document.querySelector('dialog')!.open).toBe(false)
    // (jsdom's own style sheet hides any [popover]: `hidden` reads past it.)
    const status = screen.getByRole('status', { hidden: true })
    expect(status).toHaveTextContent('Conexão removida')
    expect(toastRegion()).toContainElement(status)
    expect(toastRegion()).toHaveAttribute('popover', 'manual')
    expect(topLayer).toEqual([toastRegion()])
  })

  it('still shows toasts where the browser has no popover', () => {
    const show = vi.spyOn(HTMLElement.prototype, 'showPopover').mockImplementation(() => {
      throw new Error('not supported')
    })
    render(<Toaster />)
    act(() => {
      toast.error('Erro ao remover conexão')
    })
    expect(screen.getByRole('alert')).toHaveTextContent('Erro ao remover conexão')
    expect(toastRegion()).not.toHaveAttribute('popover')
    show.mockRestore()
  })
})
