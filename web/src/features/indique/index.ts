// What other features may use of referrals: the capture mounted on every page.
export { ReferralCapture } from './components/ReferralCapture'
