import { PremiumInvite } from '@/components/PremiumInvite'
import { ApiError, GENERIC_ERROR_MESSAGE } from '@/lib/api'

const LIMIT_TITLE = 'Limite do teste gratuito'

/**
 * A tool call's error for custom views: a plan limit (403 with "upgrade", from
 * sdk.WriteLimit) shows the Premium invitation with the server's reason;
 * anything else its pt-BR message.
 */
export function ToolError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.upgrade) {
    return <PremiumInvite title={LIMIT_TITLE} message={error.message} />
  }
  const message = error instanceof ApiError ? error.message : GENERIC_ERROR_MESSAGE
  return (
    <p role="alert" className="text-sm text-destructive">
      {message}
    </p>
  )
}
