// What other features may use of points: the member's balance.
export { usePointsBalance } from './api'
