/** What Premium gives, in the order the trial-expired dialog and /pricing list it. */
export const PREMIUM_BENEFITS = ['Pacientes ilimitados', 'Todos os desafios profissionais', 'Consultas ilimitadas à IA', 'Todos os cursos e certificados']
