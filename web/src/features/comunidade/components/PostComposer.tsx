import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { ImagePlus, RotateCw, X } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import {
  ACCEPTED_IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  MAX_POST_LENGTH,
  failureMessage,
  uploadPostImage,
  useCreatePost,
  type PostMedia,
} from '../api'
import { useDraftKey } from '../idempotency'
import { messages } from '../messages'

interface DraftImage {
  id: string
  file: File
  preview: string
  progress: number
  status: 'uploading' | 'done' | 'error'
  media?: PostMedia
  error?: string
  controller: AbortController
}

let nextLocalId = 1

function previewURL(file: File): string {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : ''
}

function revoke(url: string) {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url)
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError'
}

/**
 * 'Criar publicação': text in the Markdown subset and up to 10 images, each
 * uploaded as soon as it is chosen (with its progress). Publishing sends one
 * idempotency key per draft, so a double click or a retry posts once.
 */
export function PostComposer() {
  const [text, setText] = useState('')
  const [images, setImages] = useState<DraftImage[]>([])
  const [error, setError] = useState('')
  const create = useCreatePost()
  const draftKey = useDraftKey()
  const fileInput = useRef<HTMLInputElement>(null)
  const ids = { text: useId(), hint: useId(), error: useId(), files: useId() }

  // Leaving the page stops the uploads still running and frees the previews.
  const latest = useRef(images)
  useEffect(() => {
    latest.current = images
  }, [images])
  useEffect(
    () => () => {
      for (const img of latest.current) {
        img.controller.abort()
        revoke(img.preview)
      }
    },
    [],
  )

  const update = (id: string, patch: Partial<DraftImage>) => setImages((list) => list.map((img) => (img.id === id ? { ...img, ...patch } : img)))

  const upload = (img: DraftImage) => {
    uploadPostImage(img.file, (fraction) => update(img.id, { progress: fraction }), img.controller.signal).then(
      (media) => update(img.id, { status: 'done', progress: 1, media }),
      (err) => {
        if (!isAbort(err)) update(img.id, { status: 'error', error: failureMessage(err, messages.uploadFailed) })
      },
    )
  }

  const addFiles = (files: File[]) => {
    setError('')
    const room = MAX_IMAGES - images.length
    const problems: string[] = []
    if (files.length > room) problems.push(messages.tooManyImages)
    const added: DraftImage[] = []
    for (const file of files.slice(0, Math.max(0, room))) {
      if (!ACCEPTED_IMAGE_TYPES.includes(file.type)) {
        problems.push(messages.imageType)
        continue
      }
      if (file.size > MAX_IMAGE_BYTES) {
        problems.push(messages.imageSize)
        continue
      }
      added.push({ id: `img-${nextLocalId++}`, file, preview: previewURL(file), progress: 0, status: 'uploading', controller: new AbortController() })
    }
    if (problems.length) setError([...new Set(problems)].join(' '))
    if (!added.length) return
    setImages((list) => [...list, ...added])
    added.forEach(upload)
  }

  const remove = (img: DraftImage) => {
    img.controller.abort()
    revoke(img.preview)
    setImages((list) => list.filter((x) => x.id !== img.id))
    setError('')
  }

  const retry = (img: DraftImage) => {
    const again = { ...img, status: 'uploading' as const, progress: 0, error: undefined, controller: new AbortController() }
    setImages((list) => list.map((x) => (x.id === img.id ? again : x)))
    upload(again)
  }

  const content = text.trim()
  const mediaIds = images.flatMap((img) => (img.media ? [img.media.id] : []))
  const uploading = images.some((img) => img.status === 'uploading')
  const failed = images.some((img) => img.status === 'error')
  const empty = !content && mediaIds.length === 0
  const canPublish = !empty && !uploading && !failed && !create.isPending

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (create.isPending) return
    if (empty) return setError(messages.emptyPost)
    if (!canPublish) return
    setError('')
    const idempotencyKey = draftKey.keyFor(JSON.stringify([content, mediaIds]))
    create.mutate(
      { content, media_ids: mediaIds, idempotencyKey },
      {
        onSuccess: () => {
          toast.success(messages.postCreated)
          draftKey.reset()
          images.forEach((img) => revoke(img.preview))
          setImages([])
          setText('')
        },
        onError: (err) => setError(failureMessage(err, messages.createPostFailed)),
      },
    )
  }

  return (
    <Card className="p-4 sm:p-5">
      <form onSubmit={submit} aria-labelledby={`${ids.text}-heading`} className="flex flex-col gap-3">
        <h2 id={`${ids.text}-heading`} className="text-lg font-semibold">
          Criar publicação
        </h2>
        <label htmlFor={ids.text} className="sr-only">
          Escreva sua publicação
        </label>
        <textarea
          id={ids.text}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            if (error) setError('')
          }}
          maxLength={MAX_POST_LENGTH}
          rows={3}
          placeholder="Compartilhe um caso, uma dúvida ou uma novidade com a comunidade..."
          aria-describedby={[ids.hint, error ? ids.error : ''].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          className="min-h-24 resize-y rounded-lg border border-border bg-card p-3 text-base placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
        />
        <p id={ids.hint} className="flex flex-wrap justify-between gap-2 text-xs text-muted-foreground">
          <span>Use **negrito**, *itálico*, listas e links.</span>
          {text.length > MAX_POST_LENGTH - 500 && (
            <span aria-live="polite">
              {text.length}/{MAX_POST_LENGTH}
            </span>
          )}
        </p>

        {images.length > 0 && (
          <ul aria-label="Imagens selecionadas" className="grid grid-cols-3 gap-2 sm:grid-cols-5">
            {images.map((img) => (
              <li key={img.id} className="relative flex flex-col gap-1">
                <div className="relative aspect-square overflow-hidden rounded-lg border border-border bg-muted">
                  {img.preview && <img src={img.preview} alt={`Pré-visualização de ${img.file.name}`} className="h-full w-full object-cover" />}
                  <button
                    type="button"
                    onClick={() => remove(img)}
                    aria-label={`Remover ${img.file.name}`}
                    className="absolute right-1 top-1 rounded-full bg-black/60 p-1 text-white hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <X aria-hidden="true" className="h-4 w-4" />
                  </button>
                </div>
                {img.status === 'uploading' && (
                  <div
                    role="progressbar"
                    aria-label={`Envio de ${img.file.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(img.progress * 100)}
                    className="h-1.5 overflow-hidden rounded-full bg-muted"
                  >
                    <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.round(img.progress * 100)}%` }} />
                  </div>
                )}
                {img.status === 'error' && (
                  <div className="flex flex-col gap-1">
                    <p role="alert" className="text-xs font-medium text-destructive">
                      {img.error}
                    </p>
                    <button
                      type="button"
                      onClick={() => retry(img)}
                      aria-label={`Enviar novamente ${img.file.name}`}
                      className="inline-flex items-center gap-1 self-start text-xs font-medium text-primary underline-offset-2 hover:underline"
                    >
                      <RotateCw aria-hidden="true" className="h-3 w-3" />
                      Tentar novamente
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}

        {error && (
          <p id={ids.error} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}

        <div className="flex flex-wrap items-center justify-between gap-2">
          <label
            htmlFor={ids.files}
            className={cn(
              'inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg px-3 text-sm font-medium text-foreground hover:bg-muted focus-within:outline-2 focus-within:outline-ring',
              images.length >= MAX_IMAGES && 'pointer-events-none opacity-50',
            )}
          >
            <ImagePlus aria-hidden="true" className="h-4 w-4" />
            <span>
              Adicionar imagens <span className="text-muted-foreground">({images.length}/{MAX_IMAGES})</span>
            </span>
            <input
              ref={fileInput}
              id={ids.files}
              type="file"
              accept={ACCEPTED_IMAGE_TYPES.join(',')}
              multiple
              disabled={images.length >= MAX_IMAGES}
              aria-label="Adicionar imagens"
              className="sr-only"
              onChange={(e) => {
                addFiles(Array.from(e.target.files ?? []))
                // The same file may be chosen again after removing it.
                if (fileInput.current) fileInput.current.value = ''
              }}
            />
          </label>
          <Button type="submit" disabled={!canPublish} loading={create.isPending}>
            Publicar
          </Button>
        </div>
      </form>
    </Card>
  )
}
