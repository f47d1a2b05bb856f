import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** The service's modules the dashboard bundles (value imports from web/): pure, so nothing of the server follows. */
const BUNDLED_SERVICE_MODULES = ['src/alerts/levels.ts', 'src/domain/dependents.ts', 'src/domain/grouped.ts'];

// Syntax-only rules (no type information): the whole tree lints in seconds.
export default tseslint.config(
  { ignores: ['dist/', 'data/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Tests read answers of any shape: `any` there stands for "whatever the service sent".
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The dashboard: Preact's automatic JSX runtime (web/tsconfig.json), so no `React` in scope.
    files: ['web/**/*.tsx'],
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true }, jsxPragma: null } },
  },
  {
    // The page takes the service's types freely, but code only from the pure modules it is meant to bundle.
    files: ['web/src/**/*.ts', 'web/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./){2,3}src/(?!alerts/levels\\.js$|domain/dependents\\.js$)',
              allowTypeImports: true,
              message: `The page bundles only the service's pure modules (${BUNDLED_SERVICE_MODULES.join(', ')}); import types only from the rest.`,
            },
          ],
        },
      ],
    },
  },
  {
    files: BUNDLED_SERVICE_MODULES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // Values only from another bundled module (one that imports nothing itself).
          selector: "ImportDeclaration[importKind='value']:not([source.value='./grouped.js'])",
          message: 'The dashboard bundles this module: import types only, so nothing of the server follows it into the page.',
        },
      ],
    },
  },
  prettier,
);
