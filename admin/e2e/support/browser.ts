export { chromiumLaunchOptions } from '../../../e2e-support/browser'
