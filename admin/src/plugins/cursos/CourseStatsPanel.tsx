import { Alert, Box, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material'
import { useQuery } from '@tanstack/react-query'
import { courseStats, type CourseStats } from './api'
import { count, percent, T } from './texts'

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ minWidth: 150 }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" variant="h5" sx={{ m: 0 }}>
        {value}
      </Typography>
    </Box>
  )
}

function DropOff({ stats }: { stats: CourseStats }) {
  if (stats.drop_off.length === 0) return <Typography color="text.secondary">{T.dropOffEmpty}</Typography>
  const most = Math.max(1, ...stats.drop_off.map((d) => d.stopped))
  return (
    <Table size="small" aria-labelledby="course-dropoff-title" aria-describedby="course-dropoff-help">
      <TableHead>
        <TableRow>
          <TableCell>{T.colOrder}</TableCell>
          <TableCell>{T.colLesson}</TableCell>
          <TableCell>{T.colModule}</TableCell>
          <TableCell align="right">{T.colReached}</TableCell>
          <TableCell sx={{ width: '30%' }}>{T.colStopped}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {stats.drop_off.map((d) => (
          <TableRow key={d.lesson_id}>
            <TableCell>{d.order}</TableCell>
            <TableCell>
              {d.title}
              {d.required === false && ` (${T.optional})`}
            </TableCell>
            <TableCell>{d.module_title}</TableCell>
            <TableCell align="right">{count(d.reached)}</TableCell>
            <TableCell>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Box sx={{ minWidth: 32, textAlign: 'right' }}>{count(d.stopped)}</Box>
                {/* The bar repeats the number beside it for the eye only. */}
                <Box aria-hidden sx={{ flex: 1, bgcolor: 'action.hover', borderRadius: 1, height: 10 }}>
                  <Box sx={{ width: `${(100 * d.stopped) / most}%`, bgcolor: 'warning.main', borderRadius: 1, height: 10 }} />
                </Box>
              </Box>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/** Enrolments, completion, average progress and where learners stop (GET /api/admin/courses/{id}/stats). */
export function CourseStatsPanel({ courseId }: { courseId: string }) {
  const { data, error, isPending } = useQuery({ queryKey: ['cursos-stats', courseId], queryFn: () => courseStats(courseId) })
  return (
    <Paper component="section" variant="outlined" sx={{ p: 2, mt: 3 }} aria-labelledby="course-stats-title">
      <Typography id="course-stats-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {T.stats}
      </Typography>
      {error && <Alert severity="error">{error instanceof Error && error.message ? error.message : T.statsFailed}</Alert>}
      {!isPending && !error && data === null && <Typography color="text.secondary">{T.statsNone}</Typography>}
      {data && (
        <>
          <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: 3, m: 0, mb: 3 }}>
            <Figure label={T.enrolments} value={count(data.enrolments)} />
            <Figure label={T.completions} value={count(data.completions)} />
            <Figure label={T.completionRate} value={percent(data.completion_rate)} />
            <Figure label={T.averageProgress} value={percent(data.average_progress)} />
          </Box>
          <Typography id="course-dropoff-title" component="h3" variant="subtitle1">
            {T.dropOff}
          </Typography>
          <Typography id="course-dropoff-help" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {T.dropOffHelp}
          </Typography>
          <DropOff stats={data} />
        </>
      )}
    </Paper>
  )
}
