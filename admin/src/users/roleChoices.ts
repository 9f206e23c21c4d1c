import { GRANTABLE_ROLES } from './types'

/** SelectInput choices; names are i18n keys react-admin translates. */
export const roleChoices = GRANTABLE_ROLES.map((role) => ({ id: role, name: `vetclube.roles.${role}` }))
