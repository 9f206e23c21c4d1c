import { useEffect } from 'react'
import { useNavigate, useParams } from 'react-router'
import { FullScreenLoader } from '@/components/ui/Spinner'
import { captureReferral } from '../capture'

/** /i/{code}: keeps the code, counts the click and goes on to sign-up. */
export default function InviteLinkPage() {
  const { code } = useParams()
  const navigate = useNavigate()
  useEffect(() => {
    let live = true
    const c = (code ?? '').trim()
    void captureReferral(c !== '' && c.length <= 64 ? c : null).finally(() => {
      if (live) navigate('/register', { replace: true })
    })
    return () => {
      live = false
    }
  }, [code, navigate])
  return <FullScreenLoader />
}
