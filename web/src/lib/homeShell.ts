// The signed-in home's first paint comes from index.html (its home shell),
// shown by public/theme-init.js before the app's JavaScript arrives. It
// greets by the name this device last saw for the signed-in user: kept here
// by the home page, forgotten with the session.

/** localStorage key read by public/theme-init.js; keep both in step. */
export const HOME_GREETING_KEY = 'vc-home-greeting'

export interface HomeGreeting {
  user_id: string
  name: string
}

/** Keeps the greeting the home page shows, for the next start's shell. */
export function storeHomeGreeting(greeting: HomeGreeting): void {
  try {
    const raw = JSON.stringify(greeting)
    if (localStorage.getItem(HOME_GREETING_KEY) !== raw) localStorage.setItem(HOME_GREETING_KEY, raw)
  } catch {
    // Storage disabled: the shell shows the logo instead.
  }
}

/** The kept greeting when it belongs to userId. */
export function readHomeGreeting(userId: string | undefined): string | undefined {
  if (!userId) return undefined
  try {
    const g = JSON.parse(localStorage.getItem(HOME_GREETING_KEY) ?? 'null') as HomeGreeting | null
    return g && g.user_id === userId && typeof g.name === 'string' ? g.name : undefined
  } catch {
    return undefined
  }
}

/** Forgets the greeting (sign-out, session gone). */
export function forgetHomeGreeting(): void {
  try {
    localStorage.removeItem(HOME_GREETING_KEY)
  } catch {
    // Storage disabled: nothing was kept.
  }
}
