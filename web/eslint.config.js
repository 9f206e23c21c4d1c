import path from 'node:path'
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

// Features reach each other only through their index.ts, the small public
// surface each one keeps: an import (static, dynamic, or a vi.mock path) from a
// feature or a plugin that resolves inside another feature's folder, other
// than that folder or its index, is an error. The app shell (src/app) composes
// features and routes to their pages, and src/test holds the tests that
// compose several features: neither is bound by this rule.
const featuresDir = path.join(import.meta.dirname, 'src', 'features')
const srcDir = path.join(import.meta.dirname, 'src')
const mockCalls = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock'])

function featureOf(file) {
  const rel = path.relative(featuresDir, file)
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep)[0]
}

const featureBoundaries = {
  rules: {
    'public-surface': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          deep: "'{{spec}}' reaches inside the feature '{{feature}}': import '@/features/{{feature}}' (its index.ts), or move the shared piece to src/components or src/lib.",
        },
      },
      create(context) {
        const file = context.filename
        const here = featureOf(file)
        const check = (node) => {
          if (!node || node.type !== 'Literal' || typeof node.value !== 'string') return
          const spec = node.value
          let target
          if (spec.startsWith('@/')) target = path.join(srcDir, spec.slice(2))
          else if (spec.startsWith('.')) target = path.resolve(path.dirname(file), spec)
          else return
          const feature = featureOf(target)
          if (!feature || feature === here) return
          const rest = path.relative(path.join(featuresDir, feature), target)
          if (rest === '' || /^index(\.tsx?)?$/.test(rest)) return
          context.report({ node, messageId: 'deep', data: { spec, feature } })
        }
        return {
          ImportDeclaration: (n) => check(n.source),
          ExportNamedDeclaration: (n) => check(n.source),
          ExportAllDeclaration: (n) => check(n.source),
          ImportExpression: (n) => check(n.source),
          CallExpression: (n) => {
            const c = n.callee
            if (c.type === 'MemberExpression' && c.object.type === 'Identifier' && c.object.name === 'vi' && c.property.type === 'Identifier' && mockCalls.has(c.property.name)) check(n.arguments[0])
          },
        }
      },
    },
  },
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
  // `npm run lint` also lints ../session-client and the plugins' views
  // (../plugins/<id>/web) with this file, from the repository root.
  { files: ['session-client/**/*.ts', 'plugins/*/web/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  // Later blocks replace no-restricted-imports for the files they match.
  {
    files: ['src/**/*.{ts,tsx}', 'plugins/*/web/**/*.{ts,tsx}'],
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
    files: ['src/features/**/*.{ts,tsx}', 'plugins/*/web/**/*.{ts,tsx}'],
    plugins: { 'feature-boundaries': featureBoundaries },
    rules: {
      'no-restricted-imports': ['error', { patterns: [noAppShell, noSessionClient] }],
      'feature-boundaries/public-surface': 'error',
    },
  },
)
