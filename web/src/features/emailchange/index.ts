// E-mail change's public surface: Segurança's form.
export { EmailChangeSection } from './EmailChangeSection'
