import { describe, expect, it } from 'vitest'
import { customView, customViewIds } from './customViews'

// A tool's view lives in its plugin's folder (plugins/<id>/web/View.tsx) and
// is found there by the build, with no list to keep in the app.
describe('custom tool views', () => {
  it('finds the views in the plugins folders', () => {
    expect(customViewIds()).toContain('analise-swot')
    expect(customView('analise-swot')).toBeDefined()
  })

  it('has no view for a form tool or an unknown id', () => {
    expect(customView('calculadoras')).toBeUndefined()
    expect(customView('../../src/main')).toBeUndefined()
  })
})
