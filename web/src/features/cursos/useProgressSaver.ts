import { useCallback, useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useWatchReporter, type PlayerEvents, type WatchReport } from '@/components/player/useWatchReporter'
import { applyProgress, saveProgress, type ProgressAnswer } from './api'

/**
 * Saves a lesson's position and the spans actually played (useWatchReporter).
 * Answers update the caches; `onAnswer` sees those that arrive while the
 * lesson is still open (the completion screen).
 */
export function useProgressSaver({
  courseId,
  lessonId,
  startAt,
  enabled,
  onAnswer,
}: {
  courseId: string
  lessonId: string
  startAt: number
  enabled: boolean
  onAnswer: (a: ProgressAnswer) => void
}): PlayerEvents {
  const qc = useQueryClient()
  const onAnswerRef = useRef(onAnswer)
  useEffect(() => {
    onAnswerRef.current = onAnswer
  })
  const send = useCallback(
    (report: WatchReport, leaving: boolean, mounted: () => boolean) =>
      saveProgress(courseId, lessonId, report, leaving).then((a) => {
        applyProgress(qc, courseId, lessonId, a)
        if (mounted()) onAnswerRef.current(a)
      }),
    [courseId, lessonId, qc],
  )
  return useWatchReporter({ startAt, enabled, send })
}
