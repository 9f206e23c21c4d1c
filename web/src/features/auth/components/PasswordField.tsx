import { useId, useState } from 'react'
import { Check, X } from 'lucide-react'
import { Input } from '@/components/ui/Input'
import { cn } from '@/lib/cn'
import { passwordReasons, passwordReasonText, type PasswordReason } from '../passwordRules'

const RULES: PasswordReason[] = ['tooShort', 'noUpper', 'noLower', 'noDigit', 'noSymbol', 'containsEmail']

/**
 * The 'Senha' field of sign-up and reset, with the shared validator's reasons
 * live under it: every rule listed, each marked met or not as the user types.
 */
export function NewPasswordField({
  value,
  onChange,
  email,
  error,
  label = 'Senha',
  name = 'password',
}: {
  value: string
  onChange: (value: string) => void
  email: string
  error?: string
  label?: string
  name?: string
}) {
  const [visible, setVisible] = useState(false)
  const rulesId = useId()
  const toggleId = useId()
  const inputId = useId()
  const failed = new Set(passwordReasons(value, email))
  // The email rule means nothing until there is an email to compare with.
  const rules = email.trim() !== '' ? RULES : RULES.filter((r) => r !== 'containsEmail')
  return (
    <div className="flex flex-col gap-2">
      <Input
        id={inputId}
        label={label}
        name={name}
        type={visible ? 'text' : 'password'}
        autoComplete="new-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={error}
        // Input's own describedby would point at the error only; keep both.
        aria-describedby={error ? `${rulesId} ${inputId}-error` : rulesId}
        required
      />
      <label htmlFor={toggleId} className="flex items-center gap-2 text-sm text-muted-foreground">
        <input id={toggleId} type="checkbox" checked={visible} onChange={(e) => setVisible(e.target.checked)} className="h-4 w-4 accent-primary" />
        Mostrar senha
      </label>
      <div id={rulesId}>
        <p className="text-sm font-medium">A senha:</p>
        <ul aria-label="Requisitos da senha" className="mt-1 flex flex-col gap-1 text-sm">
          {rules.map((rule) => {
            const met = value !== '' && !failed.has(rule)
            return (
              <li
                key={rule}
                data-rule={rule}
                data-met={met}
                className={cn('flex items-center gap-2', met ? 'text-green-800 dark:text-green-300' : 'text-muted-foreground')}
              >
                {met ? <Check aria-hidden="true" className="h-4 w-4 shrink-0" /> : <X aria-hidden="true" className="h-4 w-4 shrink-0" />}
                <span>
                  {passwordReasonText[rule]}
                  <span className="sr-only">{met ? ' (atendido)' : ' (pendente)'}</span>
                </span>
              </li>
            )
          })}
        </ul>
      </div>
    </div>
  )
}
