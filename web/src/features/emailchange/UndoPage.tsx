import { EmailLinkPage } from './EmailLinkPage'

export default function UndoPage() {
  return <EmailLinkPage kind="undo" />
}
