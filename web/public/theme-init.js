// Runs before first paint (blocking, in <head>) so the saved theme never flashes.
;(function () {
  var theme = null
  try {
    theme = localStorage.getItem('theme')
  } catch (e) {}
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
  }
  var root = document.documentElement
  root.classList.toggle('dark', theme === 'dark')
  root.style.colorScheme = theme

  // A signed-in start at the home page paints index.html's home shell (the
  // greeting and the cards' places) before the app's JavaScript arrives:
  // only with a session cookie and the greeting kept for this device's last
  // signed-in user (src/lib/homeShell.ts writes it, a sign-out forgets it).
  try {
    if (location.pathname === '/' && /(?:^|;\s*)(?:__Host-)?vc_csrf=/.test(document.cookie)) {
      var greeting = JSON.parse(localStorage.getItem('vc-home-greeting') || 'null')
      var user = JSON.parse(localStorage.getItem('vc-last-session-user') || 'null')
      if (greeting && user && greeting.user_id === user.id && typeof greeting.name === 'string') {
        // A CSS string (JSON's escapes are valid CSS escapes), shown by .vc-shell-name.
        root.style.setProperty('--vc-shell-name', JSON.stringify(greeting.name))
        root.setAttribute('data-shell', 'home')
      }
    }
  } catch (e) {}
})()
