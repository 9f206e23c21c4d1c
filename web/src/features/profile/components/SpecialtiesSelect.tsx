import { useId } from 'react'
import { Check } from 'lucide-react'
import { cn } from '@/lib/cn'
import type { Specialty } from '../types'

/**
 * A multi-select built on native checkboxes inside a fieldset: every screen reader
 * and keyboard already knows how to use it (Tab between options, Space to toggle),
 * styled as chips.
 */
export function SpecialtiesSelect({
  options,
  value,
  onChange,
  error,
  legend = 'Especialidades',
}: {
  options: Specialty[]
  value: string[]
  onChange: (value: string[]) => void
  error?: string
  legend?: string
}) {
  const errorId = useId()
  const hintId = useId()
  const toggle = (option: string, checked: boolean) =>
    onChange(checked ? [...value.filter((v) => v !== option), option] : value.filter((v) => v !== option))
  return (
    <fieldset aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <p id={hintId} className="mt-1 text-sm text-muted-foreground">
        Escolha uma ou mais ({value.length} selecionada{value.length === 1 ? '' : 's'}).
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {options.map((option) => {
          const checked = value.includes(option.value)
          return (
            <label
              key={option.value}
              className={cn(
                'relative inline-flex cursor-pointer items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm font-medium transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                checked ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card text-foreground hover:bg-muted',
              )}
            >
              <input
                type="checkbox"
                name="specialties"
                value={option.value}
                checked={checked}
                onChange={(e) => toggle(option.value, e.target.checked)}
                className="sr-only"
              />
              {checked && <Check aria-hidden="true" className="h-4 w-4" />}
              {option.label}
            </label>
          )
        })}
      </div>
      {error && (
        <p id={errorId} role="alert" className="mt-1.5 text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  )
}
