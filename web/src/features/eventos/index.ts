// What other features may use of events: the next event and how it is shown (the home card).
export { useNextEvent } from './api'
export { EventTypeBadge } from './components/EventTypeBadge'
export { formatEventDate, formatEventTime, inViewerZone, placeLabel } from './format'
