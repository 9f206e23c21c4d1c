import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/Button'

export default function LandingPage() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-bold">VetClube</h1>
      <div className="flex gap-2">
        <Link to="/register" className={buttonClasses('primary')}>Criar conta grátis</Link>
        <Link to="/login" className={buttonClasses('outline')}>Entrar</Link>
      </div>
    </main>
  )
}
