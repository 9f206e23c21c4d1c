import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations as check } from '../../../e2e-support/a11y'

/**
 * The shared accessibility check (e2e-support/a11y.ts) with this app's
 * AxeBuilder: fails on any serious or critical axe-core violation (WCAG 2.1
 * A/AA rules and best practices) on the current page.
 */
export function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  return check(AxeBuilder, page, label)
}
