import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react'
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward'
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward'
import DragIndicatorIcon from '@mui/icons-material/DragIndicator'
import DriveFileMoveIcon from '@mui/icons-material/DriveFileMove'
import { Alert, Box, Button, Chip, IconButton, Menu, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material'
import { useQuery } from '@tanstack/react-query'
import { Link as RouterLink, useParams } from 'react-router-dom'
import { HttpError } from 'ra-core'
import { Loading, Title, useDataProvider, useNotify } from 'react-admin'
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
} from '@dnd-kit/core'
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { StatusChip } from '../../content/ContentList'
import { PreviewButton } from '../../content/ContentEdit'
import { resourceName, type AdminItem, type ContentType } from '../../content/types'
import { WorkflowBar } from '../../content/WorkflowBar'
import { createChild, loadTree, write } from './api'
import { CourseStatsPanel } from './CourseStatsPanel'
import {
  acceptsLessons,
  childIds,
  COURSE,
  courseTotals,
  findLesson,
  formatDuration,
  LESSON,
  lessonSeconds,
  MODULE,
  moduleIndex,
  moveLesson,
  moveModule,
  replaceItem,
  stepLesson,
  stepModule,
  totalsOf,
  unpublished,
  writesFor,
  type Direction,
  type Entry,
  type ModuleNode,
  type Totals,
  type Tree,
} from './curriculum'
import { T } from './texts'

// dnd-kit ids: modules, lessons and the lesson list of a module (the drop
// target of an empty module).
const mKey = (id: string) => `m:${id}`
const lKey = (id: string) => `l:${id}`
const cKey = (id: string) => `c:${id}`
const idOf = (key: string | number) => String(key).slice(2)
const kindOf = (key: string | number) => String(key)[0]

// Read by screen readers, not shown.
const visuallyHidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const

const titleOf = (e: Entry | undefined, module: boolean) => e?.item?.title ?? (module ? T.unreadableModule : T.unreadableLesson)

function totalsText(t: Totals): string {
  const parts = [T.lessonCount(t.lessons), T.duration(formatDuration(t.seconds))]
  if (t.unknown > 0 && t.lessons > 0) parts.push(T.unknownDurations(t.unknown))
  return parts.join(' · ')
}

/** The drag handle's props: dnd-kit's listeners and attributes on a real button. */
type HandleProps = Record<string, unknown> & { ref: (el: HTMLElement | null) => void }

function SortableItem({ id, disabled, children }: { id: string; disabled: boolean; children: (handle: HandleProps) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled,
    attributes: { roleDescription: 'item reordenável' },
  })
  return (
    <Box
      component="li"
      ref={setNodeRef}
      sx={{ listStyle: 'none', opacity: isDragging ? 0.5 : 1, position: 'relative', zIndex: isDragging ? 1 : 'auto' }}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {children({ ref: setActivatorNodeRef, ...attributes, ...listeners })}
    </Box>
  )
}

function DragHandle({ label, handle, disabled }: { label: string; handle: HandleProps; disabled: boolean }) {
  const { ref, ...rest } = handle
  return (
    <IconButton size="small" ref={ref} {...rest} aria-label={label} disabled={disabled} sx={{ cursor: disabled ? 'default' : 'grab' }}>
      <DragIndicatorIcon fontSize="small" />
    </IconButton>
  )
}

function MoveButtons({
  focusKey,
  title,
  canUp,
  canDown,
  disabled,
  onMove,
}: {
  focusKey: string
  title: string
  canUp: boolean
  canDown: boolean
  disabled: boolean
  onMove: (dir: Direction) => void
}) {
  return (
    <>
      <IconButton size="small" aria-label={T.moveUp(title)} data-focus-key={`${focusKey}:up`} disabled={disabled || !canUp} onClick={() => onMove(-1)}>
        <ArrowUpwardIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={T.moveDown(title)} data-focus-key={`${focusKey}:down`} disabled={disabled || !canDown} onClick={() => onMove(1)}>
        <ArrowDownwardIcon fontSize="small" />
      </IconButton>
    </>
  )
}

/** 'Mover «aula» para outro módulo': a menu of the other modules; the lesson goes to the end of the one chosen. */
function MoveToModule({ title, targets, disabled, onPick }: { title: string; targets: { id: string; label: string }[]; disabled: boolean; onPick: (moduleId: string) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null)
  return (
    <>
      <IconButton
        size="small"
        aria-label={T.moveTo(title)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        disabled={disabled || targets.length === 0}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <DriveFileMoveIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {targets.map((t) => (
          <MenuItem
            key={t.id}
            onClick={() => {
              setAnchor(null)
              onPick(t.id)
            }}
          >
            {t.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  )
}

function EditLink({ type, item }: { type: string; item: AdminItem }) {
  return (
    <Button size="small" component={RouterLink} to={`/${resourceName(type)}/${item.id}`} aria-label={T.edit(item.title)}>
      {T.editShort}
    </Button>
  )
}

/**
 * A title box and a button that creates a draft child. The idempotency key
 * lives until the child is created and attached, so pressing again after a
 * failure does not create a second one; a new title gets a new key.
 */
function AddForm({ label, button, disabled, onAdd }: { label: string; button: string; disabled: boolean; onAdd: (title: string, key: string) => Promise<boolean> }) {
  const [title, setTitle] = useState('')
  const [key, setKey] = useState(() => crypto.randomUUID())
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const t = title.trim()
    if (!t) return
    setBusy(true)
    try {
      if (await onAdd(t, key)) {
        setTitle('')
        setKey(crypto.randomUUID())
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
      <TextField
        size="small"
        label={label}
        value={title}
        onChange={(e) => {
          setTitle(e.target.value)
          setKey(crypto.randomUUID())
        }}
        slotProps={{ htmlInput: { maxLength: 200 } }}
        sx={{ minWidth: 280, flex: 1 }}
      />
      <Button type="submit" variant="outlined" disabled={disabled || busy || title.trim() === ''}>
        {button}
      </Button>
    </Box>
  )
}

function LessonList({ module, children }: { module: ModuleNode; children: ReactNode }) {
  const { setNodeRef } = useDroppable({ id: cKey(module.id), disabled: !acceptsLessons(module) })
  return (
    <Box component="ol" ref={setNodeRef} aria-label={T.lessonsOf(titleOf(module, true))} sx={{ pl: 0, m: 0, minHeight: 40 }}>
      {children}
    </Box>
  )
}

/** Reads the curriculum, and keeps what the editor reordered until it is saved or undone. */
function useCurriculum(courseId: string) {
  const dp = useDataProvider()
  // No structural sharing: every read is a new object, so a reload after a
  // save or a conflict is always adopted.
  const query = useQuery({
    queryKey: ['cursos-curriculum', courseId],
    queryFn: () => loadTree(dp, courseId),
    structuralSharing: false,
    refetchOnWindowFocus: false,
  })
  const [tree, setTree] = useState<Tree | null>(null)
  const [seen, setSeen] = useState<Tree | undefined>(undefined)
  const [adopt, setAdopt] = useState(false)
  // A fresh read replaces the edited tree unless the editor has unsaved moves.
  if (query.data && query.data !== seen) {
    setSeen(query.data)
    if (!tree || adopt || writesFor(tree).length === 0) {
      setTree(query.data)
      setAdopt(false)
    }
  }
  const reload = async () => {
    setAdopt(true)
    await query.refetch()
  }
  return { dp, query, tree, setTree, reload, undo: () => query.data && setTree(query.data) }
}

export default function CurriculumManager({ type }: { type: ContentType }) {
  const { id = '' } = useParams()
  const notify = useNotify()
  const { dp, query, tree, setTree, reload, undo } = useCurriculum(id)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState('')
  const [announcement, setAnnouncement] = useState('')
  const focusAfter = useRef('')
  const [dragStart, setDragStart] = useState<Tree | null>(null)

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )

  // After a keyboard move the row may have moved to another list: put focus
  // back on the button pressed, or on its pair when that one is now disabled.
  useEffect(() => {
    const focusKey = focusAfter.current
    if (!focusKey) return
    focusAfter.current = ''
    const [key, dir] = [focusKey.slice(0, focusKey.lastIndexOf(':')), focusKey.slice(focusKey.lastIndexOf(':') + 1)]
    const pick = (d: string) => document.querySelector<HTMLButtonElement>(`[data-focus-key="${key}:${d}"]`)
    const el = pick(dir)
    if (el && !el.disabled) el.focus()
    else pick(dir === 'up' ? 'down' : 'up')?.focus()
  }, [tree])

  const writes = useMemo(() => (tree ? writesFor(tree) : []), [tree])
  const dirty = writes.length > 0

  // Unsaved moves survive no reload: the browser asks before leaving.
  useEffect(() => {
    if (!dirty) return
    const warn = (e: BeforeUnloadEvent) => e.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])

  if (query.isPending) return <Loading />
  if (!tree) {
    return (
      <Box sx={{ p: 2 }}>
        <Title title={T.manage} />
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void query.refetch()}>
              {T.retry}
            </Button>
          }
        >
          {query.error?.message || T.loadFailed}
        </Alert>
      </Box>
    )
  }

  const busy = saving || dragStart !== null

  const failed = async (e: unknown) => {
    if (e instanceof HttpError && e.status === 409) {
      setError(T.conflict)
      await reload()
    } else if (e instanceof HttpError && e.status === 422 && e.body?.error?.fields) {
      // The field messages say what is wrong ("Informe o título."), the summary only that something is.
      setError(Object.values(e.body.error.fields as Record<string, string>).join(' ') || e.message)
    } else {
      setError(e instanceof Error && e.message ? e.message : T.saveFailed)
    }
  }

  const save = async () => {
    setSaving(true)
    setError('')
    let current = tree
    try {
      for (const w of writesFor(current)) {
        current = replaceItem(current, await write(dp, w))
        setTree(current)
      }
      notify(T.saved, { type: 'success' })
      await reload()
    } catch (e) {
      await failed(e)
    } finally {
      setSaving(false)
    }
  }

  const keyboardMove = (next: Tree | undefined, key: string, say: (t: Tree) => string) => {
    if (!next) return
    focusAfter.current = key
    setTree(next)
    setAnnouncement(say(next))
  }

  const sayLesson = (lessonId: string) => (t: Tree) => {
    const at = findLesson(t, lessonId)
    const m = t.modules[at.m]
    return T.movedWithin(titleOf(m.lessons[at.l], false), at.l + 1, m.lessons.length, titleOf(m, true))
  }
  const sayModule = (moduleId: string) => (t: Tree) => {
    const i = moduleIndex(t, moduleId)
    return T.movedModule(titleOf(t.modules[i], true), i + 1, t.modules.length)
  }

  // Creates a draft child and lists it in its parent at once (a PUT of the
  // parent's saved children plus the new one), so no child is left unlisted;
  // the editor's unsaved moves stay as they are.
  const addModule = async (title: string, key: string) => {
    setError('')
    try {
      const created = await createChild(dp, MODULE, title, key)
      const course = await write(dp, { type: COURSE, field: 'modules', item: tree.course, ids: [...childIds(tree.course, 'modules'), created.id] })
      setTree((t) => t && { ...t, course, modules: [...t.modules, { id: created.id, item: created, lessons: [] }] })
      setAnnouncement(T.added(created.title))
      return true
    } catch (e) {
      await failed(e)
      return false
    }
  }
  const addLesson = async (moduleId: string, title: string, key: string) => {
    setError('')
    const node = tree.modules.find((m) => m.id === moduleId)
    if (!node?.item) return false
    try {
      const created = await createChild(dp, LESSON, title, key)
      const saved = await write(dp, { type: MODULE, field: 'lessons', item: node.item, ids: [...childIds(node.item, 'lessons'), created.id] })
      setTree(
        (t) =>
          t && {
            ...t,
            modules: t.modules.map((m) => (m.id === moduleId ? { ...m, item: saved, lessons: [...m.lessons, { id: created.id, item: created }] } : m)),
          },
      )
      setAnnouncement(T.added(created.title))
      return true
    } catch (e) {
      await failed(e)
      return false
    }
  }

  // ---- Drag and drop ----
  const collision: CollisionDetection = (args) => {
    const kind = kindOf(args.active.id)
    const droppableContainers = args.droppableContainers.filter((c) => {
      const k = kindOf(c.id)
      if (kind === 'm') return k === 'm'
      if (k === 'l') return true
      // A module's list is a target of its own only when it is empty; else its lessons are.
      const m = tree.modules.find((x) => x.id === idOf(c.id))
      return k === 'c' && !!m && acceptsLessons(m) && m.lessons.length === 0
    })
    return closestCenter({ ...args, droppableContainers })
  }
  const moduleOfKey = (t: Tree, key: string | number): string | undefined => {
    if (kindOf(key) === 'c') return idOf(key)
    if (kindOf(key) === 'l') {
      const at = findLesson(t, idOf(key))
      return at.m >= 0 ? t.modules[at.m].id : undefined
    }
    return undefined
  }
  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over || kindOf(active.id) !== 'l') return
    const lessonId = idOf(active.id)
    const from = moduleOfKey(tree, active.id)
    const to = moduleOfKey(tree, over.id)
    if (!from || !to || from === to) return
    const dest = tree.modules[moduleIndex(tree, to)]
    const at = kindOf(over.id) === 'l' ? dest.lessons.findIndex((l) => l.id === idOf(over.id)) : dest.lessons.length
    setTree(moveLesson(tree, lessonId, to, at))
  }
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragStart(null)
    if (!over) return
    if (kindOf(active.id) === 'm' && kindOf(over.id) === 'm') {
      setTree(moveModule(tree, idOf(active.id), moduleIndex(tree, idOf(over.id))))
    } else if (kindOf(active.id) === 'l' && kindOf(over.id) === 'l') {
      const to = moduleOfKey(tree, over.id)
      if (!to) return
      const dest = tree.modules[moduleIndex(tree, to)]
      setTree(moveLesson(tree, idOf(active.id), to, dest.lessons.findIndex((l) => l.id === idOf(over.id))))
    }
  }
  const nameOfKey = (key: string | number) => {
    if (kindOf(key) === 'm') return titleOf(tree.modules.find((m) => m.id === idOf(key)), true)
    if (kindOf(key) === 'c') return T.lessonsOf(titleOf(tree.modules.find((m) => m.id === idOf(key)), true))
    const at = findLesson(tree, idOf(key))
    return at.m >= 0 ? titleOf(tree.modules[at.m].lessons[at.l], false) : ''
  }
  const announcements: Announcements = {
    onDragStart: ({ active }) => T.dragStart(nameOfKey(active.id)),
    onDragOver: ({ active, over }) => (over ? T.dragOver(nameOfKey(active.id), nameOfKey(over.id)) : undefined),
    onDragEnd: ({ active }) => T.dragEnd(nameOfKey(active.id)),
    onDragCancel: ({ active }) => T.dragCancel(nameOfKey(active.id)),
  }

  const totals = courseTotals(tree)
  const targets = tree.modules.filter(acceptsLessons).map((m) => ({ id: m.id, label: T.moduleLabel(moduleIndex(tree, m.id) + 1, titleOf(m, true)) }))
  const pending = unpublished(tree)

  return (
    <Box sx={{ p: 2 }}>
      <Title title={T.manageTitle(tree.course.title)} />
      <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <StatusChip item={tree.course} />
        <Button size="small" component={RouterLink} to={`/${resourceName(COURSE)}/${tree.course.id}`}>
          {T.backToCourse}
        </Button>
        <PreviewButton type={type} item={tree.course} />
      </Stack>
      <Alert severity="info" sx={{ mb: 2 }} role="note">
        <strong>{T.publishNote}</strong> {T.publishNoteMore}
      </Alert>

      <Paper component="section" variant="outlined" sx={{ p: 2 }} aria-labelledby="curriculum-title">
        <Stack direction="row" sx={{ alignItems: 'baseline', flexWrap: 'wrap', gap: 2, mb: 1 }}>
          <Typography id="curriculum-title" component="h2" variant="h6">
            {T.curriculum}
          </Typography>
          <Typography variant="body2" data-testid="course-totals">
            {T.courseTotal}: {totalsText(totals)}
          </Typography>
        </Stack>

        {error && (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {error}
          </Alert>
        )}
        {dirty && (
          <Alert
            severity="warning"
            sx={{ mb: 2 }}
            role="status"
            action={
              <Stack direction="row" spacing={1}>
                <Button color="inherit" onClick={undo} disabled={saving}>
                  {T.undo}
                </Button>
                <Button variant="contained" onClick={() => void save()} disabled={saving}>
                  {saving ? T.saving : T.save}
                </Button>
              </Stack>
            }
          >
            {T.unsaved}
          </Alert>
        )}

        {tree.modules.length === 0 && <Typography color="text.secondary">{T.noModules}</Typography>}
        <DndContext
          sensors={sensors}
          collisionDetection={collision}
          accessibility={{ announcements, screenReaderInstructions: { draggable: T.dragInstructions } }}
          onDragStart={() => setDragStart(tree)}
          onDragOver={onDragOver}
          onDragEnd={onDragEnd}
          onDragCancel={() => {
            if (dragStart) setTree(dragStart)
            setDragStart(null)
          }}
        >
          <SortableContext items={tree.modules.map((m) => mKey(m.id))} strategy={verticalListSortingStrategy}>
            <Box component="ol" aria-label={T.modules} sx={{ pl: 0, m: 0 }}>
              {tree.modules.map((m, mi) => {
                const mTitle = titleOf(m, true)
                const mTotals = totalsOf(m.lessons)
                return (
                  <SortableItem key={m.id} id={mKey(m.id)} disabled={saving}>
                    {(handle) => (
                      <Paper variant="outlined" sx={{ p: 1.5, mb: 1.5 }} data-testid={`module-${m.id}`}>
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                          <DragHandle label={T.drag(mTitle)} handle={handle} disabled={saving} />
                          <Box sx={{ flex: 1, minWidth: 200 }}>
                            <Typography component="h3" variant="subtitle1">
                              {T.moduleLabel(mi + 1, mTitle)}
                            </Typography>
                            <Typography variant="body2" color="text.secondary" data-testid="module-totals">
                              {m.item ? totalsText(mTotals) : ''}
                            </Typography>
                          </Box>
                          {m.item && <StatusChip item={m.item} />}
                          <MoveButtons
                            focusKey={mKey(m.id)}
                            title={mTitle}
                            canUp={mi > 0}
                            canDown={mi < tree.modules.length - 1}
                            disabled={busy}
                            onMove={(dir) => keyboardMove(stepModule(tree, m.id, dir), `${mKey(m.id)}:${dir < 0 ? 'up' : 'down'}`, sayModule(m.id))}
                          />
                          {m.item && <EditLink type={MODULE} item={m.item} />}
                        </Stack>
                        {m.item && (
                          <Box sx={{ pl: { xs: 0, sm: 5 }, mt: 1 }}>
                            <SortableContext items={m.lessons.map((l) => lKey(l.id))} strategy={verticalListSortingStrategy}>
                              <LessonList module={m}>
                                {m.lessons.length === 0 && (
                                  <Typography component="li" variant="body2" color="text.secondary" sx={{ listStyle: 'none', py: 1 }}>
                                    {T.noLessons}
                                  </Typography>
                                )}
                                {m.lessons.map((l, li) => {
                                  const lTitle = titleOf(l, false)
                                  // As stepLesson: past its module's ends a lesson goes into the next readable module.
                                  const canUp = li > 0 || tree.modules.slice(0, mi).some(acceptsLessons)
                                  const canDown = li < m.lessons.length - 1 || tree.modules.slice(mi + 1).some(acceptsLessons)
                                  return (
                                    <SortableItem key={l.id} id={lKey(l.id)} disabled={saving}>
                                      {(lh) => (
                                        <Stack
                                          direction="row"
                                          spacing={1}
                                          sx={{ alignItems: 'center', py: 0.5, borderTop: li ? 1 : 0, borderColor: 'divider', flexWrap: 'wrap' }}
                                        >
                                          <DragHandle label={T.drag(lTitle)} handle={lh} disabled={saving} />
                                          <Typography sx={{ flex: 1, minWidth: 160 }}>
                                            {li + 1}. {lTitle}
                                          </Typography>
                                          {l.item?.fields?.is_optional === true && <Chip size="small" variant="outlined" label={T.optional} />}
                                          {l.item?.fields?.is_free === true && <Chip size="small" variant="outlined" color="success" label={T.free} />}
                                          {l.item && <StatusChip item={l.item} />}
                                          <Typography variant="body2" sx={{ minWidth: 48, textAlign: 'right' }}>
                                            {formatDuration(lessonSeconds(l)) || '—'}
                                          </Typography>
                                          <MoveButtons
                                            focusKey={lKey(l.id)}
                                            title={lTitle}
                                            canUp={canUp}
                                            canDown={canDown}
                                            disabled={busy}
                                            onMove={(dir) => keyboardMove(stepLesson(tree, l.id, dir), `${lKey(l.id)}:${dir < 0 ? 'up' : 'down'}`, sayLesson(l.id))}
                                          />
                                          <MoveToModule
                                            title={lTitle}
                                            targets={targets.filter((t) => t.id !== m.id)}
                                            disabled={busy}
                                            onPick={(to) => {
                                              const next = moveLesson(tree, l.id, to, Number.MAX_SAFE_INTEGER)
                                              focusAfter.current = `${lKey(l.id)}:down`
                                              setTree(next)
                                              setAnnouncement(sayLesson(l.id)(next))
                                            }}
                                          />
                                          {l.item && <EditLink type={LESSON} item={l.item} />}
                                        </Stack>
                                      )}
                                    </SortableItem>
                                  )
                                })}
                              </LessonList>
                            </SortableContext>
                            <AddForm
                              label={T.newLesson(mTitle)}
                              button={T.addLesson}
                              disabled={busy}
                              onAdd={(title, key) => addLesson(m.id, title, key)}
                            />
                          </Box>
                        )}
                      </Paper>
                    )}
                  </SortableItem>
                )
              })}
            </Box>
          </SortableContext>
        </DndContext>
        <AddForm label={T.newModule} button={T.addModule} disabled={busy} onAdd={addModule} />
        <Box role="status" aria-live="polite" sx={visuallyHidden}>
          {announcement}
        </Box>
      </Paper>

      <Paper component="section" variant="outlined" sx={{ p: 2, mt: 3 }} aria-labelledby="publish-title">
        <Typography id="publish-title" component="h2" variant="h6" sx={{ mb: 1 }}>
          {T.pendingTitle}
        </Typography>
        <Typography sx={{ mb: 2 }}>{T.publishNote}</Typography>
        {dirty && (
          <Alert severity="warning" sx={{ mb: 2 }} role="note">
            {T.pendingSaveFirst}
          </Alert>
        )}
        {pending.length === 0 && <Typography color="text.secondary">{T.pendingNone}</Typography>}
        {pending.map(({ type: t, item }) => (
          <Box
            key={`${item.id}:${item.version}`}
            component="section"
            aria-label={T.pendingOf(T.kind[t] ?? t, item.title)}
            sx={{ borderTop: 1, borderColor: 'divider', pt: 1.5, mb: 1 }}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
              <Typography sx={{ flex: 1 }}>{T.pendingOf(T.kind[t] ?? t, item.title)}</Typography>
              <StatusChip item={item} />
            </Stack>
            <WorkflowBar type={t} item={item} disabled={dirty || saving} />
          </Box>
        ))}
      </Paper>

      <CourseStatsPanel courseId={tree.course.id} />
    </Box>
  )
}
