// Share targets for the member's referral link.

export function shareText(link: string): string {
  return `Venha para o VetClube, a comunidade de profissionais da veterinária! Crie sua conta pelo meu convite: ${link}`
}

export function whatsappUrl(link: string): string {
  return `https://wa.me/?text=${encodeURIComponent(shareText(link))}`
}

export function emailUrl(link: string): string {
  const subject = 'Convite para o VetClube'
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(shareText(link))}`
}

const dateFormat = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'America/Sao_Paulo' })

/** "dd/mm/aaaa" in São Paulo time. */
export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso))
}
