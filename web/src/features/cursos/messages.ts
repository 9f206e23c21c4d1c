// pt-BR texts of the courses screens. The product's messages (the first three
// and the lesson ones shared with the video catalogue) are kept character for
// character; the others follow the API's wording.
export const messages = {
  // Courses.
  loadFailed: 'Erro ao carregar cursos',
  enrolFailed: 'Erro ao matricular no curso',
  favoriteFailed: 'Erro ao favoritar curso',
  // The videos' messages, for the same actions on a lesson.
  likeFailed: 'Erro ao atualizar curtida',
  completeFailed: 'Erro ao atualizar status de conclusão',

  // The last-course card's invitation.
  lastCourseTitle: 'Continue de onde parou',
  lastCourseEmpty: 'Você ainda não iniciou nenhum curso. Escolha um curso e acompanhe seu progresso por aqui.',
  lastCourseAllDone: 'Você concluiu todos os cursos que iniciou. Escolha o próximo e acompanhe seu progresso por aqui.',
  explore: 'Explorar cursos',

  courseNotFound: 'Curso não encontrado.',
  lessonNotFound: 'Aula não encontrada.',
  noCourses: 'Nenhum curso encontrado.',
  noCoursesHint: 'Tente outros filtros ou outra busca.',
  endOfList: 'Você chegou ao fim da lista de cursos.',
  retry: 'Tentar novamente',
  loadMore: 'Carregar mais',
  enrol: 'Matricular-se',
  continue: 'Continuar',
  premiumText: 'Esta aula é exclusiva para assinantes Premium. Assine para continuar.',
  seePlans: 'Ver Planos',
  notEnrolled: 'Matricule-se no curso para assistir a esta aula.',

  // Certificates.
  certificateNotFound: 'Certificado não encontrado.',
  certificateNotFoundHint: 'Confira se o código foi digitado corretamente. Ele aparece no rodapé do certificado.',
  certificateCheckFailed: 'Não foi possível verificar o certificado agora. Tente novamente.',
  certificateValid: 'Certificado válido',
  certificateRevoked: 'Certificado revogado',
  noCertificates: 'Você ainda não tem certificados. Conclua um curso para receber o seu.',
}
