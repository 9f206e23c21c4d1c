// pt-BR texts of the community. The comment messages are the product's
// wording, character for character; the post texts follow the API's.
export const messages = {
  // Comments.
  loadCommentsFailed: 'Erro ao carregar comentários',
  createCommentFailed: 'Erro ao criar comentário. Tente novamente.',
  likeFailed: 'Erro ao curtir comentário',
  dislikeFailed: 'Erro ao não curtir comentário',
  editCommentFailed: 'Erro ao editar comentário',
  deleteCommentFailed: 'Erro ao excluir comentário',
  loginToComment: 'Você precisa estar logado para comentar',
  loginToLike: 'Você precisa estar logado para curtir comentários',
  loginToDislike: 'Você precisa estar logado para não curtir comentários',
  loginToEdit: 'Você precisa estar logado para editar comentários',
  loginToDelete: 'Você precisa estar logado para excluir comentários',
  unauthenticated: 'Usuário não autenticado. Por favor, faça login.',
  emptyComment: 'O comentário não pode estar vazio',
  // The composer without a signed-in user.
  composerLogin: 'Faça login para comentar',
  // The author's fallback label.
  fallbackAuthor: 'Usuário VetClube',
  // The comments modal.
  deleteCommentTitle: 'Excluir Comentário',
  noMedia: 'Sem mídia',
  unsupportedMedia: 'Mídia não suportada',

  // Posts (the community API's refusals).
  emptyPost: 'A publicação não pode estar vazia',
  tooManyImages: 'Máximo de 10 imagens por publicação',
  postTooLong: 'A publicação deve ter no máximo 5000 caracteres',
  imageType: 'Envie uma imagem JPG, PNG, WebP ou GIF.',
  imageSize: 'A imagem deve ter no máximo 10 MB.',
  uploadFailed: 'Erro ao enviar imagem. Tente novamente.',
  createPostFailed: 'Erro ao publicar. Tente novamente.',
  postCreated: 'Publicação criada!',
  editPostFailed: 'Erro ao editar publicação',
  postUpdated: 'Publicação atualizada',
  deletePostFailed: 'Erro ao excluir publicação',
  postDeleted: 'Publicação excluída',
  postLikeFailed: 'Erro ao curtir publicação',
  answerAccepted: 'Resposta aceita marcada',
  answerCleared: 'Resposta aceita desmarcada',
  acceptAnswerFailed: 'Não foi possível marcar a resposta aceita',
  loadFeedFailed: 'Erro ao carregar publicações',
  loadPostFailed: 'Erro ao carregar publicação',
  postNotFound: 'Publicação não encontrada',
  commentDeleted: 'Comentário excluído',

  // Reports and blocks.
  reportReasonRequired: 'Informe o motivo da denúncia',
  reportSent: 'Denúncia enviada. Obrigado por ajudar a manter a comunidade segura.',
  reportFailed: 'Erro ao enviar denúncia',
  blocked: 'Usuário bloqueado',
  blockFailed: 'Erro ao bloquear usuário',
  unblocked: 'Usuário desbloqueado',
  unblockFailed: 'Erro ao desbloquear usuário',
}
