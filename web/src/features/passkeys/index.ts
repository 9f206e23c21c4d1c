// Passkeys' public surface: Segurança's section and the sign-in button.
export { PasskeysSection } from './PasskeysSection'
export { PasskeyLoginButton } from './PasskeyLoginButton'
