// What other features may use of connections: the profile's connection controls and the
// community's suggestions card (and its cache keys).
export { connectionKeys, useRequestConnection, useSuggestions } from './api'
export { ConnectButton } from './components/ConnectButton'
export { MutualConnections } from './components/MutualConnections'
