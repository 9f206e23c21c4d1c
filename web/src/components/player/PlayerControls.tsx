import { useId, useState } from 'react'
import { Keyboard } from 'lucide-react'
import { AUTO, SHORTCUTS, SPEEDS, autoLabel, speedLabel, type LevelInfo, type Option } from './controls'

const selectClass = 'h-9 rounded-lg border border-border bg-card px-2 text-sm text-card-foreground'

function Choice({ label, value, options, onChange }: { label: string; value: number; options: Option[]; onChange: (v: number) => void }) {
  const id = useId()
  return (
    <div className="inline-flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <select id={id} value={String(value)} onChange={(e) => onChange(Number(e.target.value))} className={selectClass}>
        {options.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The keyboard shortcuts, behind a disclosure button. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    // Not offered on phones and touch screens, which have no keyboard to use them with.
    <div className="text-sm max-md:hidden pointer-coarse:hidden">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-9 items-center gap-2 rounded-lg border border-border bg-card px-3 font-medium hover:bg-muted"
      >
        <Keyboard aria-hidden="true" className="h-4 w-4" />
        Atalhos do teclado
      </button>
      <div id={id} hidden={!open} className="mt-2 rounded-lg border border-border bg-card p-3">
        <p className="mb-2 text-muted-foreground">Com o foco no player:</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {SHORTCUTS.map((s) => (
            <div key={s.does} className="contents">
              <dt className="flex gap-1">
                {s.keys.map((k) => (
                  <kbd key={k} className="rounded border border-border bg-muted px-1.5 font-mono text-xs">
                    {k}
                  </kbd>
                ))}
              </dt>
              <dd>{s.does}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  )
}

/**
 * The <video> player's controls under the frame: quality (hls.js renditions,
 * when there are several), speed, captions (when the stream has any) and the
 * shortcuts' help.
 */
export function PlayerControls({
  quality,
  speed,
  captions,
}: {
  quality: { options: Option[]; value: number; playing?: LevelInfo; onChange: (v: number) => void } | null
  speed: { value: number; onChange: (v: number) => void }
  captions: { options: Option[]; value: number; onChange: (v: number) => void } | null
}) {
  // The automatic entry says which rendition it plays now.
  const qualityOptions = quality?.options.map((o) => (o.value === AUTO ? { ...o, label: autoLabel(quality.playing) } : o))
  return (
    <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
      {quality && qualityOptions && qualityOptions.length > 2 && (
        <Choice label="Qualidade" value={quality.value} options={qualityOptions} onChange={quality.onChange} />
      )}
      <Choice label="Velocidade" value={speed.value} options={SPEEDS.map((s) => ({ value: s, label: speedLabel(s) }))} onChange={speed.onChange} />
      {captions && captions.options.length > 0 && <Choice label="Legendas" value={captions.value} options={captions.options} onChange={captions.onChange} />}
      <ShortcutsHelp />
    </div>
  )
}
