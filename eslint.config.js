// ESLint 9 flat config: the rules of STYLE.md §5, §6 and §12 (hub's set), and nothing more.
// `npm run lint` runs it; scripts/test.sh counts a lint failure as one failed test.
// No rule here needs type information, so the config parses without a TypeScript program: type
// errors are tsc's job (the typecheck step), and linting stays a few seconds on a 2-core CI box.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const testFiles = ['**/*.test.ts', 'test/**', 'bench/**', 'scripts/**'];

export default defineConfig(
  {
    ignores: ['dist/**', 'out/**', '.jupyter/**', '.cache/**', '.ci/**', '.gl/**', '.whl/**', '.gpu/**', 'notebooks/**', '**/*.ipynb'],
  },
  {
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      curly: ['error', 'all'],
    },
  },
  {
    files: ['**/*.{ts,mts,cts}'],
    rules: {
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
  {
    files: ['src/**'],
    ignores: ['src/cli/**'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message: 'Throw InferkitError, ValidationError or HttpError from src/errors.ts, not a bare Error (STYLE.md §5).',
        },
        {
          selector: "ThrowStatement > CallExpression[callee.name='Error']",
          message: 'Throw InferkitError, ValidationError or HttpError from src/errors.ts, not a bare Error (STYLE.md §5).',
        },
        {
          selector: 'ThrowStatement > Literal, ThrowStatement > TemplateLiteral',
          message: 'Do not throw a string; throw an InferkitError with a code (STYLE.md §5).',
        },
        {
          selector: 'ExportDefaultDeclaration',
          message: 'Named exports only; no default exports in src (STYLE.md §6).',
        },
      ],
    },
  },
  {
    // Tests, benchmarks and scripts: `!` on values a test has just asserted, and unannotated helpers, are fine.
    files: testFiles,
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
    },
  },
);
