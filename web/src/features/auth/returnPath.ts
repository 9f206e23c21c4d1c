/**
 * Where to go after signing in. The guard sends visitors to
 * `/login?redirect=<path>`; only same-site absolute paths are honoured so the
 * parameter cannot become an open redirect.
 */
export function loginPathFor(target: string): string {
  return target && target !== '/' ? `/login?redirect=${encodeURIComponent(target)}` : '/login'
}

export function returnPathFrom(search: string | URLSearchParams, fallback = '/'): string {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search
  const target = params.get('redirect')
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback
  if (target.startsWith('/login') || target.startsWith('/register')) return fallback
  return target
}
