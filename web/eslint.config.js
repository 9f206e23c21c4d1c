import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// Import boundaries: shared code (lib/, components/) never imports features
// or the app shell (src/app: router, layout, guard); features never import
// the app shell. The shell imports features to route to them.
const noAppShell = {
  group: ['@/app/*', '@/app/**', '**/app/*', '**/app/**'],
  message: 'Features and shared code do not import the app shell (src/app).',
}
const noFeatures = {
  group: ['@/features/*', '@/features/**', '**/features/**'],
  message: 'Shared code (src/lib, src/components) does not import features.',
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
  {
    files: ['src/lib/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noFeatures, noAppShell] }] },
  },
  {
    files: ['src/features/**/*.{ts,tsx}', 'src/plugins/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noAppShell] }] },
  },
)
