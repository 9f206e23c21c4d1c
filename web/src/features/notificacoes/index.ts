// What other features may use of notifications: the relative time the bell shows.
export { relativeTime } from './view'
