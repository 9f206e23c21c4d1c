import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Copy, Star, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { toolFetch, type ToolViewProps } from '@/features/ferramentas'

interface Opt { id: string; label: string; note?: string }
interface Network { id: string; label: string; max_chars: number; max_hashtags: number }
interface Options { networks: Network[]; topics: Opt[]; audiences: Opt[]; tones: Opt[]; advertising_note: string }
interface Profile { name: string; city: string; services: string; whatsapp: string; responsible: string }
interface Post { texto: string; hashtags: string[]; cta: string; sugestao_imagem: string; variacoes: string[]; completo: string; avisos: string[] }
interface Day { dia: string; tema: string; texto: string; hashtags: string[]; completo: string }
interface Saved {
  id: string
  kind: 'post' | 'calendario'
  network: string
  topic: string
  content: Post & { posts?: Day[] }
  favorite: boolean
  created_at: string
}

const field = 'w-full rounded-md border border-border bg-background px-3 py-2 text-sm'

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text)
    toast({ title: 'Copiado.', variant: 'success' })
  } catch {
    toast({ title: 'Não foi possível copiar. Selecione o texto e copie manualmente.', variant: 'error' })
  }
}

function CopyButton({ text, label = 'Copiar' }: { text: string; label?: string }) {
  return (
    <Button type="button" variant="secondary" size="sm" onClick={() => void copy(text)}>
      <Copy aria-hidden="true" className="size-4" /> {label}
    </Button>
  )
}

/** Social Media IA: posts and a weekly calendar for a clinic's networks. */
export default function SocialMediaView({ tool }: ToolViewProps) {
  const qc = useQueryClient()
  const options = useQuery({ queryKey: ['tools', tool.id, 'options'], queryFn: () => toolFetch<Options>(tool.id, 'options') })
  const [form, setForm] = useState({ network: 'instagram', topic: 'vacinacao', audience: 'tutores-caes', tone: 'acolhedor', details: '', use_profile: false })
  const [result, setResult] = useState<Saved>()
  const [onlyFav, setOnlyFav] = useState(false)
  const history = useQuery({
    queryKey: ['tools', tool.id, 'posts', onlyFav],
    queryFn: () => toolFetch<{ posts: Saved[] }>(tool.id, `posts${onlyFav ? '?favorites=1' : ''}`).then((r) => r.posts),
  })
  const generate = useMutation({
    mutationFn: (kind: 'posts' | 'calendar') =>
      toolFetch<{ post: Saved; remaining: number }>(tool.id, kind, { method: 'POST', body: { ...form, client_id: crypto.randomUUID() } }),
    onSuccess: (r) => {
      setResult(r.post)
      void qc.invalidateQueries({ queryKey: ['tools', tool.id, 'posts'] })
    },
  })
  const favorite = useMutation({
    mutationFn: (p: Saved) => toolFetch<Saved>(tool.id, `posts/${p.id}/favorite`, { method: 'PUT', body: { favorite: !p.favorite } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['tools', tool.id, 'posts'] }),
  })
  const remove = useMutation({
    mutationFn: (p: Saved) => toolFetch<void>(tool.id, `posts/${p.id}`, { method: 'DELETE' }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['tools', tool.id, 'posts'] }),
  })
  if (options.isPending) return <Spinner />
  if (options.error) return <p role="alert">{options.error.message}</p>
  const o = options.data
  const topic = o.topics.find((t) => t.id === form.topic)
  const set = (k: string) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }))
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Novo post</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 md:grid-cols-2">
          <label className="flex flex-col gap-1 text-sm">
            Rede social
            <select className={field} value={form.network} onChange={set('network')}>
              {o.networks.map((n) => (
                <option key={n.id} value={n.id}>{`${n.label} (até ${n.max_chars.toLocaleString('pt-BR')} caracteres)`}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Tema
            <select className={field} value={form.topic} onChange={set('topic')}>
              {o.topics.map((t) => (
                <option key={t.id} value={t.id}>{t.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Público
            <select className={field} value={form.audience} onChange={set('audience')}>
              {o.audiences.map((t) => (
                <option key={t.id} value={t.id}>{t.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Tom
            <select className={field} value={form.tone} onChange={set('tone')}>
              {o.tones.map((t) => (
                <option key={t.id} value={t.id}>{t.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm md:col-span-2">
            Detalhes (opcional)
            <textarea className={field} rows={2} maxLength={500} value={form.details} onChange={set('details')} />
          </label>
          <label className="flex items-center gap-2 text-sm md:col-span-2">
            <input type="checkbox" checked={form.use_profile} onChange={(e) => setForm((f) => ({ ...f, use_profile: e.target.checked }))} />
            Usar o perfil da clínica salvo
          </label>
          {topic?.note && <p className="text-sm text-amber-700 md:col-span-2">{topic.note}</p>}
          <div className="flex flex-wrap gap-2 md:col-span-2">
            <Button disabled={generate.isPending} onClick={() => generate.mutate('posts')}>
              Gerar post
            </Button>
            <Button variant="secondary" disabled={generate.isPending} onClick={() => generate.mutate('calendar')}>
              Calendário da semana (7 posts)
            </Button>
            {generate.isPending && <Spinner />}
          </div>
          {generate.error && (
            <p role="alert" className="text-sm text-destructive md:col-span-2">
              {generate.error.message}
            </p>
          )}
        </CardContent>
      </Card>
      {result && <Result saved={result} />}
      <ClinicProfile toolId={tool.id} />
      <Card>
        <CardHeader>
          <CardTitle>Histórico</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={onlyFav} onChange={(e) => setOnlyFav(e.target.checked)} /> Só favoritos
          </label>
          {history.data?.length === 0 && <p className="text-sm text-muted-foreground">Nenhum post ainda.</p>}
          <ul aria-label="Posts gerados" className="flex flex-col gap-2">
            {history.data?.map((p) => (
              <li key={p.id} className="flex items-start justify-between gap-2 rounded-lg border border-border p-3">
                <button type="button" className="flex-1 text-left text-sm" onClick={() => setResult(p)}>
                  <span className="font-medium">
                    {p.kind === 'calendario' ? 'Calendário semanal' : 'Post'} · {o.networks.find((n) => n.id === p.network)?.label} ·{' '}
                    {o.topics.find((t) => t.id === p.topic)?.label}
                  </span>
                  <span className="line-clamp-2 block text-muted-foreground">{p.content.texto ?? p.content.posts?.[0]?.texto}</span>
                </button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={p.favorite ? 'Remover dos favoritos' : 'Favoritar'}
                  aria-pressed={p.favorite}
                  onClick={() => favorite.mutate(p)}
                >
                  <Star aria-hidden="true" className={p.favorite ? 'size-4 fill-current' : 'size-4'} />
                </Button>
                <Button variant="ghost" size="sm" aria-label="Excluir post" onClick={() => remove.mutate(p)}>
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  )
}

function Result({ saved }: { saved: Saved }) {
  const c = saved.content
  if (saved.kind === 'calendario') {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Calendário da semana</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="flex flex-col gap-3" aria-label="Calendário">
            {c.posts?.map((d) => (
              <li key={d.dia} className="rounded-lg border border-border p-3 text-sm">
                <p className="font-medium">
                  {d.dia} — {d.tema}
                </p>
                <p className="whitespace-pre-wrap">{d.completo}</p>
                <CopyButton text={d.completo} />
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
    )
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Seu post</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p data-testid="post-text" className="whitespace-pre-wrap rounded-lg bg-muted p-3">
          {c.completo}
        </p>
        <p className="text-xs text-muted-foreground">{c.completo.length.toLocaleString('pt-BR')} caracteres</p>
        <div className="flex flex-wrap gap-2">
          <CopyButton text={c.completo} label="Copiar post" />
          {c.hashtags.length > 0 && <CopyButton text={c.hashtags.join(' ')} label="Copiar hashtags" />}
        </div>
        <p>
          <strong>Chamada para ação:</strong> {c.cta}
        </p>
        <p>
          <strong>Sugestão de imagem:</strong> {c.sugestao_imagem}
        </p>
        <div>
          <strong>Variações</strong>
          <ol className="mt-1 flex list-decimal flex-col gap-2 pl-5">
            {c.variacoes.map((v, i) => (
              <li key={i}>
                <p className="whitespace-pre-wrap">{v}</p>
                <CopyButton text={v} label={`Copiar variação ${i + 1}`} />
              </li>
            ))}
          </ol>
        </div>
        <ul className="flex flex-col gap-1 text-xs text-amber-800 dark:text-amber-300">
          {c.avisos.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function ClinicProfile({ toolId }: { toolId: string }) {
  const profile = useQuery({ queryKey: ['tools', toolId, 'profile'], queryFn: () => toolFetch<Profile>(toolId, 'profile') })
  const [draft, setDraft] = useState<Profile>()
  const p = draft ?? profile.data ?? { name: '', city: '', services: '', whatsapp: '', responsible: '' }
  const save = useMutation({
    mutationFn: (body: Profile) => toolFetch<Profile>(toolId, 'profile', { method: 'PUT', body }),
    onSuccess: () => toast({ title: 'Perfil da clínica salvo.', variant: 'success' }),
  })
  const set = (k: keyof Profile) => (e: { target: { value: string } }) => setDraft({ ...p, [k]: e.target.value })
  return (
    <details className="rounded-xl border border-border bg-card p-4">
      <summary className="cursor-pointer font-medium">Perfil da clínica</summary>
      <div className="mt-3 grid gap-3 md:grid-cols-2">
        <Input label="Nome da clínica" value={p.name} onChange={set('name')} />
        <Input label="Cidade" value={p.city} onChange={set('city')} />
        <Input label="Serviços" value={p.services} onChange={set('services')} />
        <Input label="WhatsApp" value={p.whatsapp} onChange={set('whatsapp')} />
        <Input label="Responsável técnico e CRMV" value={p.responsible} onChange={set('responsible')} />
        <Button className="self-start" disabled={save.isPending} onClick={() => save.mutate(p)}>
          Salvar perfil
        </Button>
        {save.error && <p role="alert">{save.error.message}</p>}
      </div>
    </details>
  )
}
