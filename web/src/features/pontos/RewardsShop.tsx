import { useState } from 'react'
import { Check, Copy, Crown, Gift } from 'lucide-react'
import { ApiError } from '@/lib/api'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Dialog } from '@/components/ui/Dialog'
import { Spinner } from '@/components/ui/Spinner'
import { PremiumInvite } from '@/components/PremiumInvite'
import { BLOCKED_TEXT, KIND_NAMES, useMyRedemptions, useRedeem, useShop, type Redemption, type ShopReward } from './rewardsApi'

const numberFormat = new Intl.NumberFormat('pt-BR')
const dateFormat = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' })

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/** The shop: reward cards with cost, stock and a confirmed 'Resgatar'. */
export function RewardsShop() {
  const shop = useShop()
  const redeem = useRedeem()
  const [confirm, setConfirm] = useState<{ reward: ShopReward; key: string } | null>(null)
  const [premiumFor, setPremiumFor] = useState<ShopReward | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<Redemption | null>(null)

  const open = (reward: ShopReward) => {
    setError(null)
    if (reward.blocked === 'premium') {
      setPremiumFor(reward)
      return
    }
    // One key per confirmation: double clicks and retries are the same redemption.
    setConfirm({ reward, key: newKey() })
  }

  const submit = () => {
    if (!confirm) return
    redeem.mutate(
      { id: confirm.reward.id, key: confirm.key },
      {
        onSuccess: (r) => {
          setConfirm(null)
          setDone(r)
        },
        onError: (e) => {
          if (e instanceof ApiError && e.fields.reason === 'premium') {
            setConfirm(null)
            setPremiumFor(confirm.reward)
            return
          }
          setError(e instanceof ApiError ? e.message : 'Não foi possível resgatar. Tente novamente.')
        },
      },
    )
  }

  return (
    <section aria-labelledby="loja-titulo" className="flex flex-col gap-3">
      <h2 id="loja-titulo" className="flex items-center gap-2 text-xl font-bold">
        <Gift aria-hidden="true" className="h-5 w-5" /> Loja de recompensas
      </h2>
      {shop.isPending && <Spinner />}
      {shop.isError && <p className="text-sm text-destructive">Erro ao carregar as recompensas.</p>}
      {shop.data?.length === 0 && <p className="text-sm text-muted-foreground">Nenhuma recompensa disponível no momento.</p>}
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Recompensas">
        {shop.data?.map((r) => (
          <li key={r.id}>
            <Card className="flex h-full flex-col" aria-label={r.title}>
              {r.image_url && <img src={r.image_url} alt="" className="h-32 w-full rounded-t-2xl object-cover" loading="lazy" />}
              <CardHeader className="gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge variant="outline">{KIND_NAMES[r.kind]}</Badge>
                  {r.premium_only && (
                    <Badge variant="warning">
                      <Crown aria-hidden="true" className="h-3 w-3" /> Premium
                    </Badge>
                  )}
                </div>
                <CardTitle className="text-base">{r.title}</CardTitle>
              </CardHeader>
              <CardContent className="flex flex-1 flex-col gap-3">
                {r.description && <p className="text-sm text-muted-foreground">{r.description}</p>}
                <dl className="mt-auto flex flex-wrap gap-x-4 gap-y-1 text-sm">
                  <div className="flex gap-1">
                    <dt className="text-muted-foreground">Custo:</dt>
                    <dd className="font-semibold">{numberFormat.format(r.cost)} VetCoins</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="text-muted-foreground">Estoque:</dt>
                    <dd>{r.stock === null ? 'ilimitado' : numberFormat.format(r.stock)}</dd>
                  </div>
                  {r.per_member_limit !== null && (
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Limite:</dt>
                      <dd>
                        {r.redeemed}/{r.per_member_limit} por membro
                      </dd>
                    </div>
                  )}
                </dl>
                {r.blocked && r.blocked !== 'premium' && <p className="text-sm font-medium text-destructive">{BLOCKED_TEXT[r.blocked]}</p>}
                <Button
                  onClick={() => open(r)}
                  disabled={r.blocked !== undefined && r.blocked !== 'premium'}
                  variant={r.blocked === 'premium' ? 'outline' : 'primary'}
                  aria-label={`Resgatar ${r.title}`}
                >
                  {r.blocked === 'premium' ? 'Exclusivo Premium' : 'Resgatar'}
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>

      <Dialog
        open={confirm !== null}
        onOpenChange={(o) => !o && !redeem.isPending && setConfirm(null)}
        title="Confirmar resgate"
        description={confirm ? `Resgatar “${confirm.reward.title}” por ${numberFormat.format(confirm.reward.cost)} VetCoins?` : undefined}
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirm(null)} disabled={redeem.isPending}>
              Cancelar
            </Button>
            <Button onClick={submit} loading={redeem.isPending}>
              Confirmar resgate
            </Button>
          </>
        }
      >
        {error && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </Dialog>

      <Dialog open={premiumFor !== null} onOpenChange={(o) => !o && setPremiumFor(null)} title="Recompensa exclusiva Premium">
        <PremiumInvite title="Exclusivo para assinantes" message={`“${premiumFor?.title ?? ''}” é uma recompensa exclusiva para membros Premium. Assine para resgatar.`} />
      </Dialog>

      <Dialog
        open={done !== null}
        onOpenChange={(o) => !o && setDone(null)}
        title="Resgate concluído!"
        footer={<Button onClick={() => setDone(null)}>Concluir</Button>}
      >
        {done && <RedemptionDetails r={done} />}
      </Dialog>
    </section>
  )
}

function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false)
  return (
    <div className="flex items-center gap-2">
      <code className="rounded-lg bg-muted px-3 py-1.5 font-mono text-base font-semibold" data-testid="codigo-resgate">
        {code}
      </code>
      <Button
        variant="outline"
        size="sm"
        aria-label={`Copiar código ${code}`}
        onClick={() => {
          void navigator.clipboard?.writeText(code).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }}
      >
        {copied ? <Check aria-hidden="true" className="h-4 w-4" /> : <Copy aria-hidden="true" className="h-4 w-4" />}
        {copied ? 'Copiado' : 'Copiar'}
      </Button>
    </div>
  )
}

const STATUS: Record<Redemption['status'], string> = { pending: 'Em entrega', delivered: 'Entregue', refunded: 'Estornado' }

function RedemptionDetails({ r }: { r: Redemption }) {
  return (
    <div className="flex flex-col gap-2">
      <p className="font-medium">{r.title}</p>
      {r.code && r.status !== 'refunded' && <CopyCode code={r.code} />}
      {r.instructions && r.status !== 'refunded' && (
        <p className="text-sm">
          <span className="font-medium">Como usar: </span>
          {r.instructions}
        </p>
      )}
      {r.status === 'refunded' && (
        <p className="text-sm text-muted-foreground">
          VetCoins devolvidos{r.refund_reason ? `: ${r.refund_reason}` : '.'}
        </p>
      )}
    </div>
  )
}

/** 'Meus resgates': codes (with a copy button) and how to use them. */
export function MyRedemptions() {
  const mine = useMyRedemptions()
  const list = mine.data?.redemptions ?? []
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold">Meus resgates</h2>
      </CardHeader>
      <CardContent>
        {mine.isPending && <Spinner />}
        {mine.isError && <p className="text-sm text-destructive">Erro ao carregar seus resgates.</p>}
        {mine.isSuccess && list.length === 0 && <p className="text-sm text-muted-foreground">Você ainda não resgatou nenhuma recompensa.</p>}
        <ul className="divide-y divide-border" aria-label="Meus resgates">
          {list.map((r) => (
            <li key={r.id} className="flex flex-col gap-1 py-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-xs text-muted-foreground">
                  {dateFormat.format(new Date(r.created_at))} · {numberFormat.format(r.cost)} VetCoins
                </span>
                <Badge variant={r.status === 'delivered' ? 'success' : r.status === 'refunded' ? 'outline' : 'secondary'}>{STATUS[r.status]}</Badge>
              </div>
              <RedemptionDetails r={r} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
