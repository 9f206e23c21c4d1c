import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/cn'

type Variant = 'default' | 'secondary' | 'outline' | 'success' | 'warning'

const variants: Record<Variant, string> = {
  default: 'bg-primary text-primary-foreground',
  secondary: 'bg-accent text-accent-foreground',
  outline: 'border border-border text-foreground',
  success: 'bg-green-700 text-white',
  warning: 'bg-amber-300 text-amber-950',
}

export function Badge({ className, variant = 'default', ...rest }: HTMLAttributes<HTMLSpanElement> & { variant?: Variant }) {
  return (
    <span
      className={cn('inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold', variants[variant], className)}
      {...rest}
    />
  )
}
