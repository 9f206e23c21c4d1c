import RegisterPage from './RegisterPage'

/** /register-premium: sign-up whose confirmation link signs in and continues to the monthly checkout. */
export default function RegisterPremiumPage() {
  return <RegisterPage premium />
}
