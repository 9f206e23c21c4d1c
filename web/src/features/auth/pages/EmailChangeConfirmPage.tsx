import { EmailLinkPage } from './EmailChangeLinkPage'

export default function ConfirmPage() {
  return <EmailLinkPage kind="confirm" />
}
