import { EmailLinkPage } from './EmailLinkPage'

export default function ConfirmPage() {
  return <EmailLinkPage kind="confirm" />
}
