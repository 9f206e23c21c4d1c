/** What Premium gives, in the order the trial-expired dialog and /pricing list it. */
export const PREMIUM_BENEFITS = ['Pacientes ilimitados', 'Todos os desafios profissionais', 'Consultas à IA sem o limite do teste', 'Todos os cursos e certificados']
