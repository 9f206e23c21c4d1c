// The referral code kept on the device lives in lib/referral (the referral
// feature uses it too); sign-up reads it from here.
export {
  REFERRAL_STORAGE_KEY,
  captureReferralCode,
  clearReferralCode,
  deviceId,
  storedReferralCode,
} from '@/lib/referral'
