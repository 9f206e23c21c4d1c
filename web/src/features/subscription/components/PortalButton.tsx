import { useState, type ReactNode } from 'react'
import { Button, type ButtonProps } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { checkoutFailure, goToPortal } from '../checkout'

/** A button that opens Stripe's customer portal in this tab (change card, plan, cancel, invoices). */
export function PortalButton({ children = 'Gerenciar assinatura', variant = 'primary', ...rest }: { children?: ReactNode } & Omit<ButtonProps, 'onClick' | 'loading'>) {
  const [busy, setBusy] = useState(false)
  return (
    <Button
      {...rest}
      variant={variant}
      loading={busy}
      onClick={() => {
        setBusy(true)
        goToPortal().catch((err: unknown) => {
          setBusy(false)
          toast.error('Não foi possível abrir o gerenciamento da assinatura.', checkoutFailure(err).message)
        })
      }}
    >
      {children}
    </Button>
  )
}
