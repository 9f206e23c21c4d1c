// pt-BR texts of the player, the same wherever it plays.
export const messages = {
  playbackFailed: 'Não foi possível reproduzir este vídeo. Verifique sua conexão e tente novamente.',
}
