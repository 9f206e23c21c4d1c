// What other features may use of the exclusive videos: the home card.
export { LatestVideoCard } from './components/LatestVideoCard'
