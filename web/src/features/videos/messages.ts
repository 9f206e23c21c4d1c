// pt-BR texts of the exclusive videos screens. The product's messages are
// kept character for character; the others follow the house wording.
export const messages = {
  // Videos.
  loadFailed: 'Erro ao carregar vídeos',
  unknown: 'Erro desconhecido',
  categoriesFailed: 'Erro ao carregar categorias',
  favoriteFailed: 'Erro ao atualizar favorito',
  likeFailed: 'Erro ao atualizar curtida',
  completeFailed: 'Erro ao atualizar status de conclusão',
  // The home's exclusive-content card.
  homeFailed: 'Erro ao carregar conteúdo exclusivo. Tente novamente mais tarde.',
  homeEmpty: 'Nenhum conteúdo exclusivo disponível no momento. Novos vídeos em breve.',

  title: 'Conteúdos Exclusivos',
  homeTitle: 'Conteúdo Exclusivo',
  noVideos: 'Nenhum vídeo encontrado.',
  noVideosHint: 'Tente outros filtros ou outra busca.',
  endOfList: 'Você chegou ao fim da lista de vídeos.',
  retry: 'Tentar novamente',
  loadMore: 'Carregar mais',
  videoNotFound: 'Vídeo não encontrado.',
  premiumText: 'Este vídeo é exclusivo para assinantes Premium. Assine para continuar.',
  markCompleted: 'Marcar como concluído',
  unmarkCompleted: 'Desmarcar',
  watch: 'Assistir',
}
