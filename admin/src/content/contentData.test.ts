import { HttpError } from 'ra-core'
import { describe, expect, it } from 'vitest'
import { formErrors, inputOf, withContent } from './contentData'

describe('content saves', () => {
  it('send only the editable parts, without empty values', () => {
    const input = inputOf({
      id: 'x', status: 'rascunho', actions: [], version: 3, title: 'T', summary: '', slug: 't',
      fields: { body: 'texto', tags: [], cover: '', category: 'clinica' },
    } as any)
    expect(input).toEqual({ slug: 't', title: 'T', summary: '', fields: { body: 'texto', category: 'clinica' } })
  })

  it('turn the API 422 into errors beside each input', () => {
    const err = new HttpError('Verifique os campos destacados.', 422, {
      error: { message: 'Verifique os campos destacados.', fields: { title: 'Informe o título.', source_name: 'Informe o nome da fonte junto com o link.' } },
    })
    const mapped = formErrors(err) as HttpError
    expect(mapped.body.errors).toEqual({
      title: 'Informe o título.',
      'fields.source_name': 'Informe o nome da fonte junto com o link.',
      root: { serverError: 'Verifique os campos destacados.' },
    })
    const other = new HttpError('x', 409, {})
    expect(formErrors(other)).toBe(other)
  })

  it('post the version edited and an idempotency key, and leave other resources alone', async () => {
    const calls: any[] = []
    const client = async (url: string, options: any) => {
      calls.push({ url, options })
      return { json: { id: '1' } }
    }
    const base: any = { update: async () => ({ data: 'base' }), create: async () => ({ data: 'base' }) }
    const dp = withContent(base, client)
    await dp.update('content/noticias', { id: '1', data: { title: 'Novo', fields: {} }, previousData: { id: '1', version: 7 } } as any)
    await dp.create('content/noticias', { data: { title: 'Novo' }, meta: { idempotencyKey: 'k1' } } as any)
    expect(calls[0].url).toBe('/api/admin/content/noticias/1')
    expect(calls[0].options.body).toEqual({ version: 7, slug: '', title: 'Novo', summary: '', fields: {} })
    expect(calls[1].options.headers['Idempotency-Key']).toBe('k1')
    expect(await dp.update('users', {} as any)).toEqual({ data: 'base' })
  })

  it('read many items one by one, leaving out those the user may not see', async () => {
    const urls: string[] = []
    const client = async (url: string) => {
      urls.push(url)
      if (url.endsWith('/m2')) throw new HttpError('Conteúdo não encontrado.', 404, {})
      return { json: { id: url.split('/').pop(), version: 1 } }
    }
    const dp = withContent({ getMany: async () => ({ data: ['base'] }) } as any, client)
    const { data } = await dp.getMany('content/cursos-modulos', { ids: ['m1', 'm2', 'm3'] })
    expect(urls).toEqual(['/api/admin/content/cursos-modulos/m1', '/api/admin/content/cursos-modulos/m2', '/api/admin/content/cursos-modulos/m3'])
    expect(data.map((d) => d.id)).toEqual(['m1', 'm3'])
    await expect(
      withContent({} as any, async () => {
        throw new HttpError('Erro', 500, {})
      }).getMany('content/cursos', { ids: ['x'] }),
    ).rejects.toThrow('Erro')
    expect((await dp.getMany('users', { ids: ['u1'] })).data).toEqual(['base'])
  })
})
