import { useState } from 'react'
import { Button, Confirm, useListContext, useNotify, useRefresh, useTranslate, useUnselectAll } from 'react-admin'
import { httpClient } from '../providers/httpClient'
import type { AdminItem } from './types'

interface BulkResult {
  id: string
  ok: boolean
  error?: string
}

/**
 * List buttons applying one workflow action to the selected items. Each item
 * passes the same gate as one by one (publishing requires approval); the
 * notification says how many moved and why the others did not.
 */
export function BulkActions({ type }: { type: string }) {
  const translate = useTranslate()
  const notify = useNotify()
  const refresh = useRefresh()
  const { selectedIds, data, resource } = useListContext<AdminItem>()
  const unselectAll = useUnselectAll(resource)
  const [asking, setAsking] = useState(false)
  const [running, setRunning] = useState(false)
  const run = async (action: 'publish' | 'archive') => {
    const items = (data ?? []).filter((it) => selectedIds.includes(it.id)).map((it) => ({ id: it.id, version: it.version }))
    try {
      const { json } = await httpClient(`/api/admin/content/${encodeURIComponent(type)}/bulk/${action}`, { method: 'POST', body: { items } })
      const results = (json ?? []) as BulkResult[]
      const done = results.filter((r) => r.ok).length
      const refused = results.filter((r) => !r.ok)
      notify(
        refused.length === 0
          ? translate('vetclube.content.bulk_done', { smart_count: done })
          : `${translate('vetclube.content.bulk_done', { smart_count: done })} ${translate('vetclube.content.bulk_refused', { smart_count: refused.length, reason: refused[0].error ?? '' })}`,
        { type: refused.length ? 'warning' : 'success' },
      )
      unselectAll()
      refresh()
    } catch (e) {
      notify(e instanceof Error ? e.message : 'vetclube.content.action_failed', { type: 'error' })
    }
  }
  // Publishing puts the items in front of every member at once: asked first.
  const publish = async () => {
    setRunning(true)
    try {
      await run('publish')
    } finally {
      setRunning(false)
      setAsking(false)
    }
  }
  return (
    <>
      <Button label="vetclube.content.bulk_publish" onClick={() => setAsking(true)} />
      <Confirm
        isOpen={asking}
        loading={running}
        title={translate('vetclube.content.bulk_publish_title', { smart_count: selectedIds.length })}
        content={translate('vetclube.content.bulk_publish_content')}
        confirm="vetclube.content.bulk_publish"
        onConfirm={() => void publish()}
        onClose={() => setAsking(false)}
      />
      <Button label="vetclube.content.bulk_archive" onClick={() => run('archive')} />
    </>
  )
}
