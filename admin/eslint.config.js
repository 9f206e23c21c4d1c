import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.e2e-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // react-admin's data and auth provider contracts type the API's JSON
      // as any; the providers narrow it where they read it.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['src/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  { files: ['scripts/**', 'e2e/**', '*.config.{js,ts}'], languageOptions: { globals: globals.node } },
  {
    // The session client shared with web/ (../session-client, linted by web's
    // npm run lint) is wrapped by the HTTP client; everything else calls that.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/providers/httpClient.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vetclube/session-client', '**/session-client', '**/session-client/**'],
              message: 'Use providers/httpClient: it wraps the shared session client.',
            },
          ],
        },
      ],
    },
  },
)
