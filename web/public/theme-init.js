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
})()
