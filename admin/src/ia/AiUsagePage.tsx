import { useEffect, useState, type ReactNode } from 'react'
import { Alert, Box, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material'
import { Title } from 'react-admin'
import { httpClient } from '../providers/httpClient'

export interface AiOverview {
  days: number
  by_day: { day: string; messages: number; tokens: number; cost_usd: number; members: number }[]
  by_member: { user_id: string; email: string; name: string; messages: number; tokens: number; cost_usd: number }[]
  top_sources: { item_id: string; title: string; url: string; cites: number }[]
  reports: { message_id: string; conversation_id: string; conversation: string; email: string; reason: string; question: string; answer: string; reported_at: string }[]
  /** AI generations of the tool plugins (host.AI), per tool and per template version. */
  tools?: {
    tool_id: string
    calls: number
    members: number
    prompt_tokens: number
    completion_tokens: number
    cost_usd: number
    refused: number
    failed: number
    images: number
    templates: { template: string; version: string; calls: number; tokens: number; cost_usd: number }[]
  }[]
}

const int = new Intl.NumberFormat('pt-BR')
const usd = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 })

function Section({ title, empty, head, children }: { title: string; empty: boolean; head: string[]; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {empty ? (
        <Typography color="text.secondary">Nada no período.</Typography>
      ) : (
        <TableContainer component={Paper}>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                {head.map((h) => (
                  <TableCell key={h}>{h}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>{children}</TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  )
}

/** 'VetClube IA' (super admins): usage per day, per member and per tool, the most cited sources, reported answers. */
export default function AiUsagePage() {
  const [data, setData] = useState<AiOverview | null>(null)
  const [error, setError] = useState('')
  useEffect(() => {
    httpClient('/api/admin/ai/overview?days=30')
      .then(({ json }) => setData(json as AiOverview))
      .catch((e: Error) => setError(e.message))
  }, [])
  return (
    <Box sx={{ p: 2 }}>
      <Title title="VetClube IA" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Uso dos últimos 30 dias (calendário de São Paulo): perguntas, tokens e custo estimado pelo preço de cada modelo.
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {data && (
        <>
          <Section title="Uso por dia" empty={data.by_day.length === 0} head={['Dia', 'Perguntas', 'Membros', 'Tokens', 'Custo']}>
            {data.by_day.map((d) => (
              <TableRow key={d.day}>
                <TableCell>{d.day.split('-').reverse().join('/')}</TableCell>
                <TableCell>{int.format(d.messages)}</TableCell>
                <TableCell>{int.format(d.members)}</TableCell>
                <TableCell>{int.format(d.tokens)}</TableCell>
                <TableCell>{usd.format(d.cost_usd)}</TableCell>
              </TableRow>
            ))}
          </Section>
          <Section title="Uso por membro" empty={data.by_member.length === 0} head={['Membro', 'Perguntas', 'Tokens', 'Custo']}>
            {data.by_member.map((m) => (
              <TableRow key={m.user_id}>
                <TableCell>
                  {m.name || m.email}
                  <Typography variant="caption" display="block" color="text.secondary">
                    {m.email}
                  </Typography>
                </TableCell>
                <TableCell>{int.format(m.messages)}</TableCell>
                <TableCell>{int.format(m.tokens)}</TableCell>
                <TableCell>{usd.format(m.cost_usd)}</TableCell>
              </TableRow>
            ))}
          </Section>
          <Section
            title="Uso por ferramenta"
            empty={(data.tools ?? []).length === 0}
            head={['Ferramenta', 'Gerações', 'Membros', 'Tokens (entrada / saída)', 'Custo', 'Recusadas / falhas', 'Modelos de prompt']}
          >
            {(data.tools ?? []).map((t) => (
              <TableRow key={t.tool_id} sx={{ verticalAlign: 'top' }}>
                <TableCell>{t.tool_id}</TableCell>
                <TableCell>
                  {int.format(t.calls)}
                  {t.images > 0 && (
                    <Typography variant="caption" display="block" color="text.secondary">
                      {int.format(t.images)} com imagem
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{int.format(t.members)}</TableCell>
                <TableCell>
                  {int.format(t.prompt_tokens)} / {int.format(t.completion_tokens)}
                </TableCell>
                <TableCell>{usd.format(t.cost_usd)}</TableCell>
                <TableCell>
                  {int.format(t.refused)} / {int.format(t.failed)}
                </TableCell>
                <TableCell>
                  {t.templates.map((p) => (
                    <Typography key={`${p.template}-${p.version}`} variant="body2">
                      {p.template} v{p.version}: {int.format(p.calls)} · {int.format(p.tokens)} tokens · {usd.format(p.cost_usd)}
                    </Typography>
                  ))}
                </TableCell>
              </TableRow>
            ))}
          </Section>
          <Section title="Fontes mais citadas" empty={data.top_sources.length === 0} head={['Conteúdo', 'Citações']}>
            {data.top_sources.map((s) => (
              <TableRow key={s.item_id}>
                <TableCell>
                  <a href={s.url} target="_blank" rel="noreferrer">
                    {s.title}
                  </a>
                </TableCell>
                <TableCell>{int.format(s.cites)}</TableCell>
              </TableRow>
            ))}
          </Section>
          <Section title="Respostas reportadas" empty={data.reports.length === 0} head={['Quando', 'Membro', 'Conversa', 'Motivo']}>
            {data.reports.map((r) => (
              <TableRow key={`${r.message_id}-${r.email}`} sx={{ verticalAlign: 'top' }}>
                <TableCell>{new Date(r.reported_at).toLocaleString('pt-BR', { timeZone: 'America/Sao_Paulo' })}</TableCell>
                <TableCell>{r.email}</TableCell>
                <TableCell>
                  <Typography variant="body2" fontWeight={600}>
                    {r.conversation}
                  </Typography>
                  <Typography variant="body2">Pergunta: {r.question}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
                    Resposta: {r.answer}
                  </Typography>
                </TableCell>
                <TableCell>{r.reason}</TableCell>
              </TableRow>
            ))}
          </Section>
        </>
      )}
    </Box>
  )
}
