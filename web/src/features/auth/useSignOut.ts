import { useCallback } from 'react'
import { useNavigate } from 'react-router'
import { toast } from '@/components/ui/toast'
import { useAuth } from '@/lib/session/AuthProvider'

/** Signs out, tells the user with a toast whether it worked, and goes to /login. */
export function useSignOut(): () => Promise<void> {
  const { signOut } = useAuth()
  const navigate = useNavigate()
  return useCallback(async () => {
    try {
      await signOut()
      toast.success('Logout realizado com sucesso!')
      navigate('/login', { replace: true })
    } catch {
      toast.error('Erro ao fazer logout')
    }
  }, [signOut, navigate])
}
