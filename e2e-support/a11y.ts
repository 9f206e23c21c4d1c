// The accessibility check of the browser tests of web/ and admin/. This folder
// has no node_modules of its own, so each app passes in the AxeBuilder class
// from @axe-core/playwright as resolved from its own dependencies (its
// e2e/support/a11y.ts binds it once for that app's specs).

/** The parts of an axe-core result this check reads. */
interface AxeResultsLike {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: readonly unknown[] }[] }[]
}

/** The parts of @axe-core/playwright's AxeBuilder this check uses. */
export interface AxeBuilderLike {
  withTags(tags: string | string[]): AxeBuilderLike
  analyze(): Promise<AxeResultsLike>
}

/** @axe-core/playwright's default export: `new AxeBuilder({ page })`. */
export type AxeBuilderClass<P> = new (options: { page: P }) => AxeBuilderLike

/** WCAG 2.1 A and AA rules, plus axe-core's best practices. */
export const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

/** The serious and critical violations on the page, one per line with the elements involved; '' when none. */
export async function seriousA11yViolations<P>(AxeBuilder: AxeBuilderClass<P>, page: P): Promise<string> {
  const results = await new AxeBuilder({ page }).withTags(A11Y_TAGS).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
    .join('\n')
}

/** Fails (throws, naming the page by `label`) on any serious or critical axe-core violation on the current page. */
export async function expectNoSeriousA11yViolations<P>(AxeBuilder: AxeBuilderClass<P>, page: P, label: string): Promise<void> {
  const report = await seriousA11yViolations(AxeBuilder, page)
  if (report !== '') throw new Error(`Accessibility violations on ${label}:\n${report}`)
}
