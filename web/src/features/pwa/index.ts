// What other features may use of the PWA shell pieces: the install button and its state.
export { InstallButton } from './InstallPrompt'
export { useInstallState } from './install'
export { probeOnline } from './connectivity'
