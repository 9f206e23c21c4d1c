import type { Theme } from '@mui/material'
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin'

// The PWA's palette (web/src/index.css) and type, so the backoffice reads as
// part of VetClube. Every text/background pair here passes WCAG AA; the
// browser tests run axe on both themes.
const fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

type CheckboxState = { 'aria-label'?: string }

/**
 * react-admin names each row's selection checkbox with aria-label on MUI's
 * wrapping span, which screen readers do not read for the input inside. The
 * label moves onto the input itself, for every checkbox labelled that way.
 */
const components: RaThemeOptions['components'] = {
  // Helper text keeps the secondary text colour (7:1 on paper in light, 8:1
  // in dark) even in a disabled form, where MUI's own fades it to 2.7:1.
  MuiFormHelperText: {
    styleOverrides: {
      root: ({ theme }: { theme: Theme }) => ({
        color: theme.palette.text.secondary,
        '&.Mui-disabled': { color: theme.palette.text.secondary },
      }),
    },
  },
  MuiCheckbox: {
    defaultProps: {
      slotProps: {
        root: (state: CheckboxState) => (state['aria-label'] ? { 'aria-label': undefined } : {}),
        input: (state: CheckboxState) => (state['aria-label'] ? { 'aria-label': state['aria-label'] } : {}),
      },
    },
  },
}

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  palette: {
    ...defaultLightTheme.palette,
    mode: 'light',
    // White on #0f766e is 5.5:1.
    primary: { main: '#0f766e', dark: '#115e59', light: '#14b8a6', contrastText: '#ffffff' },
    secondary: { main: '#134e4a', dark: '#042f2e', light: '#0f766e', contrastText: '#ffffff' },
    background: { default: '#f8fafc', paper: '#ffffff' },
    text: { primary: '#0f172a', secondary: '#475569' },
    // Chips and alerts carry white text on these: each is at least 4.5:1
    // (MUI's own info and warning blues and oranges are not).
    info: { main: '#0e7490', dark: '#155e75', light: '#22d3ee', contrastText: '#ffffff' },
    warning: { main: '#b45309', dark: '#92400e', light: '#f59e0b', contrastText: '#ffffff' },
    success: { main: '#15803d', dark: '#166534', light: '#4ade80', contrastText: '#ffffff' },
    error: { main: '#b91c1c', dark: '#991b1b', light: '#f87171', contrastText: '#ffffff' },
  },
  typography: { ...defaultLightTheme.typography, fontFamily },
  components: { ...defaultLightTheme.components, ...components },
}

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  palette: {
    ...defaultDarkTheme.palette,
    mode: 'dark',
    // #042f2e on #2dd4bf is 8.9:1.
    primary: { main: '#2dd4bf', dark: '#14b8a6', light: '#5eead4', contrastText: '#042f2e' },
    secondary: { main: '#99f6e4', dark: '#5eead4', light: '#ccfbf1', contrastText: '#042f2e' },
    background: { default: '#0b1120', paper: '#111827' },
    text: { primary: '#e2e8f0', secondary: '#a3b1c6' },
  },
  typography: { ...defaultDarkTheme.typography, fontFamily },
  components: { ...defaultDarkTheme.components, ...components },
}
