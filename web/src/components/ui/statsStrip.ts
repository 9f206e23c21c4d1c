/** Classes for a statistics strip: one scrolling line of chips on phones, tiles from 640 px. */
export const statsStrip = {
  list: 'flex gap-2 overflow-x-auto pb-1 sm:grid sm:gap-3 sm:overflow-visible sm:pb-0',
  item: 'flex shrink-0 items-center gap-1.5 rounded-full border border-border bg-card px-3 py-1.5 shadow-sm sm:min-w-0 sm:flex-col sm:items-stretch sm:gap-1 sm:rounded-xl sm:p-3',
  term: 'flex min-w-0 items-center gap-2 text-xs text-muted-foreground',
  value: 'text-sm font-bold leading-tight sm:text-lg',
}
