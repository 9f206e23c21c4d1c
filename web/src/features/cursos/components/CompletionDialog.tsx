import { Link } from 'react-router'
import { Award, Coins } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { certificatePath, coursePath, type CourseProgress } from '../api'
import { COMPLETION_POINTS, formatNumber } from '../format'

/** The completion screen: shown once, when a report or 'Marcar como concluída' completes the course. */
export function CompletionDialog({ courseId, courseTitle, progress, onClose }: { courseId: string; courseTitle: string; progress: CourseProgress | null; onClose: () => void }) {
  const points = progress?.points_awarded || COMPLETION_POINTS
  return (
    <Dialog
      open={!!progress}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title="Parabéns! Você concluiu o curso!"
      description={`Você completou 100% de ${courseTitle}.`}
      footer={
        <>
          <Link to={coursePath(courseId)} onClick={onClose} className={buttonClasses('outline')}>
            Voltar ao curso
          </Link>
          {/* Without a certificate the title bar's 'Fechar' is the way back to the lesson. */}
          {progress?.certificate && (
            <Link to={certificatePath(courseId)} onClick={onClose} className={buttonClasses('primary')}>
              <Award aria-hidden="true" className="h-4 w-4" />
              Ver certificado
            </Link>
          )}
        </>
      }
    >
      <p className="flex items-center gap-2 rounded-xl bg-amber-50 p-4 text-lg font-bold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
        <Coins aria-hidden="true" className="h-6 w-6" />+{formatNumber(points)} VetCoins
      </p>
      {progress?.certificate && <p className="text-sm text-muted-foreground">Seu certificado já está disponível para imprimir ou baixar em PDF.</p>}
    </Dialog>
  )
}
