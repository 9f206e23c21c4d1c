import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Import boundaries: shared code (lib/, components/) never imports features
// or the app shell (src/app: router, layout, guard); features never import
// the app shell. The shell imports features to route to them. The session
// client shared with the backoffice (../session-client) is wrapped by
// src/lib/api.ts and src/lib/cookies.ts; nothing else imports it.
const noAppShell = {
  group: ['@/app/*', '@/app/**', '**/app/*', '**/app/**'],
  message: 'Features and shared code do not import the app shell (src/app).',
}
const noFeatures = {
  group: ['@/features/*', '@/features/**', '**/features/**'],
  message: 'Shared code (src/lib, src/components) does not import features.',
}
const noSessionClient = {
  group: ['@vetclube/session-client', '**/session-client', '**/session-client/**'],
  message: 'Use @/lib/api or @/lib/cookies: only src/lib wraps the shared session client.',
}

export default tseslint.config(
  { ignores: ['dist', 'dev-dist', 'node_modules', '.e2e-results', 'coverage', 'public'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  { files: ['src/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  { files: ['scripts/**', 'e2e/**', '*.config.{js,ts,mjs}'], languageOptions: { globals: globals.node } },
  // `npm run lint` also lints ../session-client with this file, from the repository root.
  { files: ['session-client/**/*.ts'], languageOptions: { globals: globals.browser } },
  // Later blocks replace no-restricted-imports for the files they match.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSessionClient] }] },
  },
  {
    files: ['src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatures, noAppShell] }] },
  },
  {
    files: ['src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatures, noAppShell, noSessionClient] }] },
  },
  {
    files: ['src/features/**/*.{ts,tsx}', 'src/plugins/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noAppShell, noSessionClient] }] },
  },
)
