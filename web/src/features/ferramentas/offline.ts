import { useCallback, useEffect, useState } from 'react'
import { ApiError, GENERIC_ERROR_MESSAGE, NETWORK_ERROR_MESSAGE, type ApiFetchOptions } from '@/lib/api'
import type { QueryClient } from '@tanstack/react-query'
import { toolFetch, toolsQuery, type Tool } from './api'

/**
 * Offline computation of form tools ("a dose calculator must work in a barn
 * with no signal"). A form tool may ship an offline build: its own Go handler
 * compiled to WebAssembly (plugins/sdk/offline), served at
 * /api/tools/<id>/offline.wasm and kept by the service worker. Online the
 * server answers and stays the authority; only when the network is
 * unreachable does the same handler run here, with the same input, and answer
 * the same JSON (results and pt-BR field errors alike).
 */

export const WASM_EXEC_URL = '/api/tools/offline/wasm_exec.js'
export const offlineWasmUrl = (toolId: string) => `/api/tools/${encodeURIComponent(toolId)}/offline.wasm`
export const OFFLINE_NOTE = 'Calculado neste aparelho, sem conexão.'

type OfflineFn = (route: string, body: string) => { status: number; body: string }

interface GoRuntime {
  importObject: WebAssembly.Imports
  run(instance: WebAssembly.Instance): Promise<void>
}

declare global {
  var vetclubeOffline: Record<string, OfflineFn> | undefined
  var Go: (new () => GoRuntime) | undefined
}

let wasmExec: Promise<void> | undefined
const tools = new Map<string, Promise<OfflineFn>>()
const modules = new Map<string, Promise<ArrayBuffer>>()

/** Loads Go's wasm_exec.js once, as a same-origin script (the CSP allows no eval). */
function loadWasmExec(): Promise<void> {
  if (globalThis.Go) return Promise.resolve()
  wasmExec ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = WASM_EXEC_URL
    script.async = true
    script.onload = () => resolve()
    script.onerror = () => {
      wasmExec = undefined
      script.remove()
      reject(new Error('wasm_exec.js'))
    }
    document.head.appendChild(script)
  })
  return wasmExec
}

/** The tool's offline build, fetched once (the service worker answers it offline). */
function fetchModule(toolId: string): Promise<ArrayBuffer> {
  let p = modules.get(toolId)
  if (!p) {
    p = fetch(offlineWasmUrl(toolId), { credentials: 'include' }).then((res) => {
      if (!res.ok) throw new Error(`offline.wasm ${res.status}`)
      return res.arrayBuffer()
    })
    p.catch(() => modules.delete(toolId))
    modules.set(toolId, p)
  }
  return p
}

/** Starts the tool's offline build once and returns its entry point. */
function loadTool(toolId: string): Promise<OfflineFn> {
  let p = tools.get(toolId)
  if (!p) {
    p = (async () => {
      const [bytes] = await Promise.all([fetchModule(toolId), loadWasmExec()])
      const Go = globalThis.Go
      if (!Go) throw new Error('wasm_exec.js did not define Go')
      const go = new Go()
      const { instance } = await WebAssembly.instantiate(bytes, go.importObject)
      void go.run(instance)
      const fn = globalThis.vetclubeOffline?.[toolId]
      if (!fn) throw new Error(`the offline build of ${toolId} did not register`)
      return fn
    })()
    p.catch(() => tools.delete(toolId))
    tools.set(toolId, p)
  }
  return p
}

/**
 * Fetches a tool's offline build while online, so the service worker holds it
 * before the signal goes. A tool without one answers 404 and is left alone.
 */
export function prefetchOffline(toolId: string): void {
  // Only where a service worker can exist (not in unit tests' jsdom), online.
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || navigator.onLine === false) return
  if (typeof WebAssembly === 'undefined') return
  fetchModule(toolId)
    .then(() => loadWasmExec())
    .catch(() => undefined)
}

/** The service worker's cache of offline builds (vite.config.ts, runtimeCaching). */
const OFFLINE_CACHE = 'vetclube-tools-offline'

/**
 * Puts every usable form tool's offline build (and Go's loader) in the
 * service worker's cache if it is not there yet, so a calculator computes on
 * a later cold start without signal even if the member never opened it
 * online. Builds already kept are not fetched again (the worker refreshes
 * them when a tool is used); tools without one answer 404 and stay out.
 */
export async function keepOfflineBuilds(tools: Tool[]): Promise<void> {
  if (typeof caches === 'undefined' || !('serviceWorker' in navigator) || navigator.onLine === false) return
  if (typeof WebAssembly === 'undefined') return
  if (!(await controlled())) return
  const cache = await caches.open(OFFLINE_CACHE)
  const urls = [WASM_EXEC_URL, ...tools.filter((t) => t.ui_kind === 'form' && t.available && !t.locked).map((t) => offlineWasmUrl(t.id))]
  for (const url of urls) {
    if (await cache.match(url)) continue
    try {
      const res = await fetch(url, { credentials: 'include' })
      if (res.ok) await res.arrayBuffer()
    } catch {
      // Offline again, or the server is away: the next start tries again.
    }
  }
}

/** The tools list's cache (vite.config.ts, runtimeCaching). */
const LIST_CACHE = 'vetclube-tools-list'

/**
 * Resolves true once a service worker controls this page: only a controlled
 * page's requests pass through the worker that keeps them. On the very first
 * visit the new worker claims the page a moment after it activates.
 */
async function controlled(timeoutMs = 15_000): Promise<boolean> {
  const sw = navigator.serviceWorker
  if (sw.controller) return true
  return new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer)
      sw.removeEventListener('controllerchange', onChange)
      resolve(value)
    }
    const onChange = () => done(true)
    const timer = setTimeout(() => done(Boolean(sw.controller)), timeoutMs)
    sw.addEventListener('controllerchange', onChange)
  })
}

let kept = false

/**
 * Once per page load of a signed-in member, online: the tools list and the
 * offline builds of its calculators, for a later cold start with no signal.
 */
export async function keepToolsForOffline(client: QueryClient): Promise<void> {
  if (kept || (typeof navigator !== 'undefined' && navigator.onLine === false)) return
  kept = true
  try {
    if (typeof caches === 'undefined' || !('serviceWorker' in navigator) || !(await controlled())) return
    // A list fetched before the worker took the page (or never) is fetched
    // again through it, so the worker keeps a copy.
    const listKept = Boolean(await (await caches.open(LIST_CACHE)).match('/api/tools'))
    await keepOfflineBuilds(await client.fetchQuery(listKept ? toolsQuery : { ...toolsQuery, staleTime: 0 }))
  } catch {
    // The server is away or the session ended: the next start tries again.
    kept = false
  }
}

function isNetworkFailure(err: unknown): boolean {
  return err instanceof ApiError && err.status === 0
}

/** Runs route with body on the tool's offline build; answers or throws like apiFetch. */
export async function computeOffline<T>(toolId: string, route: string, body: unknown): Promise<T> {
  const fn = await loadTool(toolId)
  const answer = fn(route.replace(/^\//, ''), JSON.stringify(body ?? {}))
  let data: unknown
  try {
    data = answer.body ? JSON.parse(answer.body) : undefined
  } catch {
    data = undefined
  }
  if (answer.status >= 200 && answer.status < 300) return data as T
  const e = (data as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined)?.error
  throw new ApiError(answer.status, e?.code ?? `HTTP_${answer.status}`, e?.message ?? GENERIC_ERROR_MESSAGE, e?.fields ?? {})
}

/**
 * toolFetch with an offline fallback: the server answers when it can be
 * reached; when the device is offline or the request cannot reach it, the
 * tool's offline build answers instead (if it has one; otherwise the network
 * error stands). `offline` tells whether the last answer was computed here.
 */
export function useOfflineTool(toolId: string) {
  const [offline, setOffline] = useState(false)
  useEffect(() => prefetchOffline(toolId), [toolId])
  const call = useCallback(
    async <T>(route: string, options: ApiFetchOptions = {}): Promise<T> => {
      const local = async (networkError: unknown): Promise<T> => {
        let answer: T
        try {
          answer = await computeOffline<T>(toolId, route, options.body)
        } catch (err) {
          // A refused input offline is an answer; a missing build is not.
          if (err instanceof ApiError) {
            setOffline(true)
            throw err
          }
          throw networkError
        }
        setOffline(true)
        return answer
      }
      if (typeof navigator !== 'undefined' && navigator.onLine === false) {
        return local(new ApiError(0, 'ENETWORK', NETWORK_ERROR_MESSAGE))
      }
      try {
        const answer = await toolFetch<T>(toolId, route, options)
        setOffline(false)
        return answer
      } catch (err) {
        if (!isNetworkFailure(err)) {
          setOffline(false)
          throw err
        }
        return local(err)
      }
    },
    [toolId],
  )
  return { call, offline }
}
