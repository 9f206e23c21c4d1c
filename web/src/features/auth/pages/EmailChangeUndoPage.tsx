import { EmailLinkPage } from './EmailChangeLinkPage'

export default function UndoPage() {
  return <EmailLinkPage kind="undo" />
}
