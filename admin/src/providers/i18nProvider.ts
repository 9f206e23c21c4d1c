import polyglotI18nProvider from 'ra-i18n-polyglot'
import ptBRMessages from './ptBRMessages'

export const i18nProvider = polyglotI18nProvider(() => ptBRMessages, 'pt-BR', [{ locale: 'pt-BR', name: 'Português' }])
