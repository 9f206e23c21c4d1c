// What other features may use of the content pages: the content types the backoffice links to.
export { useContentTypes } from './api'
