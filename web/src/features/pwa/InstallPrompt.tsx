import { useState } from 'react'
import { Download, Share, SquarePlus, X } from 'lucide-react'
import { Dialog } from '@/components/ui/Dialog'
import { Button } from '@/components/ui/Button'
import {
  INSTALL_BUTTON_LABELS,
  detectPlatform,
  dismissInstallPrompt,
  installButtonState,
  installPromptTitle,
  promptInstall,
  shouldShowInstallPrompt,
  useInstallState,
} from './install'

/** Bottom card 'Instalar VetClube' on Android and Windows, the platforms with an install event. */
export function InstallPrompt() {
  const install = useInstallState()
  const platform = detectPlatform(navigator.userAgent)
  if (!shouldShowInstallPrompt({ ...install, platform, now: Date.now() })) return null
  return (
    <section
      aria-labelledby="install-prompt-title"
      className="fixed inset-x-3 bottom-20 z-[80] mx-auto max-w-md rounded-2xl border border-border bg-card p-4 text-card-foreground shadow-xl lg:bottom-6"
    >
      <div className="flex items-start gap-3">
        <img src="/icons/icon-192.png" alt="" width={48} height={48} className="h-12 w-12 rounded-xl" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id="install-prompt-title" className="font-semibold">
            Instalar VetClube
          </h2>
          <p className="text-sm text-muted-foreground">{installPromptTitle(platform)}</p>
        </div>
        <button type="button" onClick={() => dismissInstallPrompt()} aria-label="Fechar" className="rounded-md p-1 text-muted-foreground hover:bg-muted">
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </div>
      <Button className="mt-3 w-full" onClick={() => void promptInstall()}>
        <Download aria-hidden="true" className="h-4 w-4" />
        Instalar Agora
      </Button>
    </section>
  )
}

/**
 * iPhone and iPad browsers have no install event: Safari installs from its
 * Share menu. The steps, where other browsers get the install button.
 */
function IosInstallHelp({ className }: { className?: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button className={className} variant="outline" onClick={() => setOpen(true)}>
        <Download aria-hidden="true" className="h-4 w-4" />
        Instalar no iPhone
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Instale o VetClube no iPhone"
        description="No Safari, são dois toques:"
        footer={<Button onClick={() => setOpen(false)}>Entendi</Button>}
      >
        <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm">
          <li>
            Toque em <strong>Compartilhar</strong> <Share aria-hidden="true" className="inline h-4 w-4 align-text-bottom" /> na barra do Safari.
          </li>
          <li>
            Escolha <strong>Adicionar à Tela de Início</strong> <SquarePlus aria-hidden="true" className="inline h-4 w-4 align-text-bottom" /> e
            confirme em <strong>Adicionar</strong>.
          </li>
        </ol>
        <p className="mt-3 text-sm text-muted-foreground">Em outro navegador do iPhone, abra esta página no Safari primeiro.</p>
      </Dialog>
    </>
  )
}

/** 'Instalar App' / 'App Instalado' / 'Instalação Indisponível', or the iPhone steps. */
export function InstallButton({ className }: { className?: string }) {
  const install = useInstallState()
  const state = installButtonState(install)
  if (state === 'unavailable' && detectPlatform(navigator.userAgent) === 'ios') return <IosInstallHelp className={className} />
  return (
    <Button
      className={className}
      variant={state === 'available' ? 'primary' : 'outline'}
      disabled={state !== 'available'}
      onClick={() => void promptInstall()}
    >
      <Download aria-hidden="true" className="h-4 w-4" />
      {INSTALL_BUTTON_LABELS[state]}
    </Button>
  )
}
