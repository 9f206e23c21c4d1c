import { BadgeDollarSign, Calculator, FlaskConical, LayoutGrid, Stethoscope, Wrench, type LucideIcon } from 'lucide-react'

// Only the icons tools name are bundled; an unknown name falls back to a wrench.
const ICONS: Record<string, LucideIcon> = {
  calculator: Calculator,
  'badge-dollar-sign': BadgeDollarSign,
  'layout-grid': LayoutGrid,
  'flask-conical': FlaskConical,
  stethoscope: Stethoscope,
  wrench: Wrench,
}

export function ToolIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? Wrench
  return <Icon aria-hidden="true" className={className} />
}
