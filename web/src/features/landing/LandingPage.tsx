import { Link } from 'react-router'
import {
  ArrowRight,
  BookOpen,
  Briefcase,
  Check,
  Coins,
  GraduationCap,
  MessageSquare,
  ShieldCheck,
  Smartphone,
  Sparkles,
  Stethoscope,
  Users,
  Wrench,
  type LucideIcon,
} from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Logo } from '@/components/Logo'
import { usePageTitle } from '@/lib/usePageTitle'

const FEATURES: Array<{ icon: LucideIcon; title: string; text: string }> = [
  { icon: Sparkles, title: 'VetClube IA', text: 'Um assistente de inteligência artificial para dúvidas clínicas, protocolos e orientações aos tutores.' },
  { icon: GraduationCap, title: 'Cursos e certificados', text: 'Módulos e aulas com especialistas, progresso salvo e certificados de conclusão.' },
  { icon: Wrench, title: 'Ferramentas clínicas', text: 'Prontuário, calculadoras, precificação de serviços, doenças, diagnóstico por imagem e simulados.' },
  { icon: Users, title: 'Comunidade', text: 'Conecte-se com colegas, troque experiências de casos e acompanhe novidades da profissão.' },
  { icon: Coins, title: 'VetCoins', text: 'Ganhe pontos com check-ins diários, cursos e desafios, e troque por recompensas.' },
  { icon: Briefcase, title: 'Oportunidades', text: 'Vagas, eventos e desafios profissionais selecionados para a sua carreira.' },
]

const FREE_PLAN = ['Comunidade e conexões', 'Check-in diário com VetCoins', 'Ferramentas essenciais', 'Consultas limitadas à VetClube IA']
const PREMIUM_PLAN = [
  'Pacientes ilimitados no prontuário',
  'Todos os desafios profissionais',
  'Consultas à VetClube IA sem o limite do teste',
  'Todos os cursos e certificados',
  'Conteúdos exclusivos em vídeo',
]

export default function LandingPage() {
  usePageTitle('Comunidade e educação para veterinários')
  return (
    <div className="min-h-dvh bg-background text-foreground">
      <header className="sticky top-0 z-30 border-b border-border bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:px-4">
          <Link to="/landing" aria-label="VetClube — página inicial" className="min-w-0">
            <Logo />
          </Link>
          <nav aria-label="Acesso" className="flex shrink-0 items-center gap-1 sm:gap-2">
            <Link to="/login" className={buttonClasses('ghost', 'sm')}>
              Entrar
            </Link>
            <Link to="/register" className={buttonClasses('primary', 'sm')}>
              Criar conta
            </Link>
          </nav>
        </div>
      </header>

      <main>
        <section className="relative overflow-hidden">
          <div aria-hidden="true" className="absolute inset-0 -z-10 bg-gradient-to-b from-teal-50 to-background dark:from-teal-950/40" />
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-14 md:py-20 lg:grid-cols-2">
            <div className="flex flex-col gap-6">
              <p className="inline-flex items-center gap-2 self-start rounded-full bg-accent px-3 py-1 text-sm font-semibold text-accent-foreground">
                <Stethoscope aria-hidden="true" className="h-4 w-4" />
                Feito para profissionais da medicina veterinária
              </p>
              <h1 className="text-4xl font-extrabold leading-tight tracking-tight md:text-5xl">
                Sua carreira veterinária em um só lugar.
              </h1>
              <p className="max-w-xl text-lg text-muted-foreground">
                Cursos, ferramentas clínicas, comunidade e um assistente de IA para você atender melhor, aprender sempre e crescer na profissão.
              </p>
              <div className="flex flex-wrap gap-3">
                <Link to="/register" className={buttonClasses('primary', 'lg')}>
                  Criar conta grátis
                  <ArrowRight aria-hidden="true" className="h-5 w-5" />
                </Link>
                <Link to="/login" className={buttonClasses('outline', 'lg')}>
                  Já tenho conta
                </Link>
              </div>
              <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-muted-foreground">
                <li className="inline-flex items-center gap-1.5">
                  <ShieldCheck aria-hidden="true" className="h-4 w-4 text-primary" />
                  Seus dados protegidos
                </li>
                <li className="inline-flex items-center gap-1.5">
                  <Smartphone aria-hidden="true" className="h-4 w-4 text-primary" />
                  Instale no celular ou no PC
                </li>
              </ul>
            </div>
            <div aria-hidden="true" className="relative mx-auto w-full max-w-md">
              <div className="rounded-3xl border border-border bg-card p-5 shadow-xl">
                <div className="mb-4 flex items-center justify-between">
                  <Logo />
                  <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
                    <Coins className="h-4 w-4" /> 120
                  </span>
                </div>
                <div className="mb-3 rounded-2xl bg-gradient-to-br from-teal-800 to-emerald-700 p-4 text-white">
                  <p className="flex items-center gap-2 font-semibold">
                    <Sparkles className="h-5 w-5" /> VetClube IA
                  </p>
                  <p className="mt-1 text-sm text-teal-50">Qual a dose de meloxicam para um cão de 12 kg?</p>
                </div>
                <div className="grid grid-cols-3 gap-2">
                  {[GraduationCap, Wrench, Users, BookOpen, Briefcase, MessageSquare].map((Icon, i) => (
                    <div key={i} className="flex h-16 items-center justify-center rounded-xl bg-muted">
                      <Icon className="h-6 w-6 text-primary" />
                    </div>
                  ))}
                </div>
              </div>
            </div>
          </div>
        </section>

        <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-14">
          <h2 id="features-title" className="text-3xl font-bold tracking-tight">
            Tudo o que o veterinário precisa no dia a dia
          </h2>
          <p className="mt-2 max-w-2xl text-muted-foreground">Da clínica de pequenos animais ao campo, o VetClube reúne conhecimento e praticidade.</p>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
                <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-accent text-accent-foreground">
                  <Icon aria-hidden="true" className="h-6 w-6" />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="plans-title" className="bg-muted/60">
          <div className="mx-auto max-w-6xl px-4 py-14">
            <h2 id="plans-title" className="text-3xl font-bold tracking-tight">
              Planos para cada momento da carreira
            </h2>
            <p className="mt-2 text-muted-foreground">Comece grátis e experimente o Premium com período de teste.</p>
            <div className="mt-8 grid gap-4 md:grid-cols-2">
              <div className="flex flex-col rounded-2xl border border-border bg-card p-6 shadow-sm">
                <h3 className="text-xl font-semibold">Gratuito</h3>
                <p className="mt-1 text-sm text-muted-foreground">Para conhecer a comunidade e as ferramentas.</p>
                <ul className="mt-5 flex flex-1 flex-col gap-2 text-sm">
                  {FREE_PLAN.map((item) => (
                    <li key={item} className="flex items-start gap-2">
                      <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
                      {item}
                    </li>
                  ))}
                </ul>
                <Link to="/register" className={buttonClasses('outline', 'md', 'mt-6')}>
                  Começar grátis
                </Link>
              </div>
              <div className="flex flex-col rounded-2xl border-2 border-primary bg-card p-6 shadow-md">
                <div className="flex items-center justify-between">
                  <h3 className="text-xl font-semibold">Premium</h3>
                  <span className="rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">Teste grátis</span>
                </div>
                <p className="mt-1 text-sm text-muted-foreground">Para quem quer ir além: mensal ou anual.</p>
                <ul className="mt-5 flex flex-1 flex-col gap-2 text-sm">
                  {PREMIUM_PLAN.map((item) => (
                    <li key={item} className="flex items-start gap-2">
                      <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
                      {item}
                    </li>
                  ))}
                </ul>
                <Link to="/register" className={buttonClasses('primary', 'md', 'mt-6')}>
                  Experimentar o Premium
                </Link>
              </div>
            </div>
          </div>
        </section>

        <section className="mx-auto max-w-6xl px-4 py-16 text-center">
          <h2 className="text-3xl font-bold tracking-tight">Junte-se à comunidade VetClube</h2>
          <p className="mx-auto mt-2 max-w-xl text-muted-foreground">Crie sua conta em menos de um minuto e comece hoje mesmo.</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/register" className={buttonClasses('primary', 'lg')}>
              Criar conta grátis
            </Link>
            <Link to="/login" className={buttonClasses('outline', 'lg')}>
              Entrar
            </Link>
          </div>
        </section>
      </main>

      <footer className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-2 px-4 py-6 text-sm text-muted-foreground sm:flex-row">
          <Logo />
          <p>© {new Date().getFullYear()} VetClube. Feito com carinho para a medicina veterinária brasileira.</p>
        </div>
      </footer>
    </div>
  )
}
