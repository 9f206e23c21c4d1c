import { useCallback, useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { apiFetch } from '@/lib/api'
import { recentApiErrors } from '@/lib/apiErrors'
import { useAuth } from '@/lib/session/AuthProvider'
import { usePageTitle } from '@/lib/usePageTitle'
import { probeOnline } from '@/features/pwa'
import { useSubscription } from '@/features/subscription'
import { diagnosticText, formatBytes, swStateLabel, type CacheInfo, type Diagnostic } from './diagnostics'

type Build = { revision: string; built_at?: string; modified?: boolean; started_at?: string; go_version?: string }

async function readCaches(): Promise<CacheInfo[]> {
  if (!('caches' in window)) return []
  const out: CacheInfo[] = []
  for (const name of await caches.keys()) {
    const c = await caches.open(name)
    const reqs = await c.keys()
    let bytes = 0
    for (const r of reqs) {
      const res = await c.match(r)
      if (res) bytes += (await res.clone().blob()).size
    }
    out.push({ name, entries: reqs.length, bytes })
  }
  return out
}

async function readServiceWorker(): Promise<Diagnostic['serviceWorker']> {
  if (!('serviceWorker' in navigator)) return { state: 'unsupported', waiting: false }
  const reg = await navigator.serviceWorker.getRegistration()
  const sw = reg?.active ?? reg?.waiting ?? reg?.installing
  if (!reg || !sw) return { state: 'none', waiting: false }
  return { state: sw.state, scriptURL: sw.scriptURL, waiting: !!reg.waiting }
}

async function readPush(): Promise<boolean | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null
  const reg = await navigator.serviceWorker.getRegistration()
  if (!reg) return null
  return (await reg.pushManager.getSubscription()) != null
}

/** /debug: what support needs to know about this device and session, with 'Copiar diagnóstico'. */
export default function DebugPage() {
  usePageTitle('Diagnóstico')
  const { user } = useAuth()
  const superAdmin = user?.roles.includes('super_admin') ?? false
  const build = useQuery({ queryKey: ['debug', 'version'], queryFn: () => apiFetch<Build>('/api/version'), retry: false })
  const sub = useSubscription()
  const [sw, setSw] = useState<Diagnostic['serviceWorker']>({ state: 'none', waiting: false })
  const [cacheList, setCacheList] = useState<CacheInfo[] | null>(null)
  const [storage, setStorage] = useState<Diagnostic['storage']>({})
  const [push, setPush] = useState<boolean | null>(null)
  const [probe, setProbe] = useState<Diagnostic['lastProbe']>(null)
  const [online, setOnline] = useState(() => navigator.onLine)
  const [busy, setBusy] = useState<string | null>(null)

  const refresh = useCallback(async () => {
    setSw(await readServiceWorker())
    setCacheList(await readCaches())
    setStorage(navigator.storage?.estimate ? await navigator.storage.estimate() : {})
    setPush(await readPush())
  }, [])

  const runProbe = useCallback(async () => {
    const ok = await probeOnline()
    setOnline(ok)
    setProbe({ at: new Date().toLocaleTimeString('pt-BR'), ok })
  }, [])

  useEffect(() => {
    void refresh()
    void runProbe()
    const on = () => setOnline(true)
    const off = () => setOnline(false)
    window.addEventListener('online', on)
    window.addEventListener('offline', off)
    return () => {
      window.removeEventListener('online', on)
      window.removeEventListener('offline', off)
    }
  }, [refresh, runProbe])

  // A worker installing or activating when the page opened (or found by
  // 'Atualizar agora'): read the state again at each of its changes, up to
  // 'activated', instead of showing the moment the page opened.
  useEffect(() => {
    const sw = navigator.serviceWorker
    if (!sw) return
    let reg: ServiceWorkerRegistration | undefined
    let gone = false
    const watched = new Set<ServiceWorker>()
    const watch = () => {
      for (const w of [reg?.installing, reg?.waiting, reg?.active]) {
        if (w && !watched.has(w)) {
          watched.add(w)
          w.addEventListener('statechange', changed)
        }
      }
    }
    const changed = () => {
      void refresh()
      watch()
    }
    void sw.getRegistration().then((r) => {
      if (gone || !r) return
      reg = r
      r.addEventListener('updatefound', changed)
      watch()
      void refresh()
    })
    return () => {
      gone = true
      for (const w of watched) w.removeEventListener('statechange', changed)
      reg?.removeEventListener('updatefound', changed)
    }
  }, [refresh])

  async function updateNow() {
    setBusy('update')
    try {
      const reg = await navigator.serviceWorker?.getRegistration()
      await reg?.update()
      if (reg?.waiting) reg.waiting.postMessage({ type: 'SKIP_WAITING' })
      await refresh()
      toast.success(reg ? 'Verificação de atualização concluída.' : 'Nenhum service worker registrado.')
    } catch {
      toast.error('Não foi possível verificar atualizações.')
    } finally {
      setBusy(null)
    }
  }

  async function clearCaches() {
    setBusy('clear')
    try {
      for (const name of await caches.keys()) await caches.delete(name)
      await refresh()
      toast.success('Cache limpo.')
    } finally {
      setBusy(null)
    }
  }

  const errors = recentApiErrors()
  const trial = sub.data
    ? sub.data.trial_active
      ? `ativo até ${sub.data.trial_ends_at ? new Date(sub.data.trial_ends_at).toLocaleDateString('pt-BR') : '—'}`
      : sub.data.trial_expired
        ? 'encerrado'
        : 'sem teste'
    : undefined
  const diagnostic: Diagnostic = {
    at: new Date().toISOString(),
    url: location.href,
    userAgent: navigator.userAgent,
    build: build.data ?? null,
    serviceWorker: sw,
    caches: cacheList ?? [],
    storage,
    notificationPermission: 'Notification' in window ? Notification.permission : 'indisponível',
    pushSubscribed: push,
    online,
    lastProbe: probe,
    user: { id: user?.id, roles: (user?.roles ?? []) as string[], trial },
    errors,
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(diagnosticText(diagnostic))
      toast.success('Diagnóstico copiado. Cole na sua mensagem ao suporte.')
    } catch {
      toast.error('Não foi possível copiar. Selecione o texto abaixo e copie manualmente.')
    }
  }

  const row = (label: string, value: React.ReactNode) => (
    <div className="flex flex-col gap-0.5 border-b border-border py-2 sm:flex-row sm:gap-4">
      <dt className="text-sm text-muted-foreground sm:w-56 sm:shrink-0">{label}</dt>
      <dd className="min-w-0 break-words text-sm font-medium">{value}</dd>
    </div>
  )

  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-5 p-4 sm:p-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Diagnóstico</h1>
        <Button onClick={copy}>Copiar diagnóstico</Button>
      </header>
      <section aria-labelledby="debug-app" className="rounded-lg border border-border bg-card p-4">
        <h2 id="debug-app" className="font-semibold">Aplicativo</h2>
        <dl>
          {row('Versão', build.data ? `${build.data.revision.slice(0, 12)}${build.data.modified ? ' (modificada)' : ''}` : build.isError ? 'indisponível' : '...')}
          {row('Build', build.data?.built_at || '—')}
          {superAdmin && row('Servidor iniciado', build.data?.started_at ?? '—')}
          {superAdmin && row('Go', build.data?.go_version ?? '—')}
          {row('Service worker', <span data-testid="sw-state">{swStateLabel(sw.state)}{sw.waiting ? ' · atualização aguardando' : ''}</span>)}
          {sw.scriptURL && row('Script do service worker', sw.scriptURL)}
        </dl>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="outline" onClick={updateNow} loading={busy === 'update'}>
            Atualizar agora
          </Button>
        </div>
      </section>
      <section aria-labelledby="debug-storage" className="rounded-lg border border-border bg-card p-4">
        <h2 id="debug-storage" className="font-semibold">Cache e armazenamento</h2>
        <dl>
          {row('Armazenamento usado', `${formatBytes(storage.usage)} de ${formatBytes(storage.quota)}`)}
          {row(
            'Caches',
            cacheList == null ? '...' : cacheList.length === 0 ? <span data-testid="cache-list">nenhum</span> : (
              <ul data-testid="cache-list">
                {cacheList.map((c) => (
                  <li key={c.name}>
                    {c.name}: {c.entries} itens, {formatBytes(c.bytes)}
                  </li>
                ))}
              </ul>
            ),
          )}
        </dl>
        <div className="mt-3">
          <Button variant="outline" onClick={clearCaches} loading={busy === 'clear'}>
            Limpar cache
          </Button>
        </div>
      </section>
      <section aria-labelledby="debug-net" className="rounded-lg border border-border bg-card p-4">
        <h2 id="debug-net" className="font-semibold">Conexão e notificações</h2>
        <dl>
          {row('Conexão', `${online ? 'online' : 'offline'}${probe ? ` · última verificação ${probe.at} (${probe.ok ? 'ok' : 'falhou'})` : ''}`)}
          {row('Permissão de notificação', diagnostic.notificationPermission)}
          {row('Inscrição push', push == null ? 'indisponível' : push ? 'inscrito' : 'não inscrito')}
        </dl>
        <div className="mt-3">
          <Button variant="outline" onClick={runProbe}>
            Verificar conexão
          </Button>
        </div>
      </section>
      <section aria-labelledby="debug-account" className="rounded-lg border border-border bg-card p-4">
        <h2 id="debug-account" className="font-semibold">Conta</h2>
        <dl>
          {superAdmin && row('Id da conta', user?.id ?? '—')}
          {row('Funções', ((user?.roles ?? []) as string[]).join(', ') || '—')}
          {row('Teste grátis', trial ?? '...')}
        </dl>
      </section>
      <section aria-labelledby="debug-errors" className="rounded-lg border border-border bg-card p-4">
        <h2 id="debug-errors" className="font-semibold">Últimos erros da API</h2>
        {errors.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">Nenhum erro nesta visita.</p>
        ) : (
          <ol className="mt-2 flex flex-col gap-2 text-sm">
            {errors.map((e, i) => (
              <li key={i} className="break-words">
                <span className="font-mono">{e.method} {e.path}</span> → {e.status} {e.message}
                {e.requestId && <span className="block font-mono text-xs text-muted-foreground">request id: {e.requestId}</span>}
              </li>
            ))}
          </ol>
        )}
      </section>
    </main>
  )
}
