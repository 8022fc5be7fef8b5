import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.state/**', 'coverage/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', {
        object: 'process', property: 'env',
        message: 'Only the CLI entry point (src/cli/) reads process.env; inject configuration instead.',
      }],
    },
  },
  { files: ['src/cli/**/*.ts', 'test/**/*.ts'], rules: { 'no-restricted-properties': 'off' } },
  // A command loads what it runs when it runs (`require(…) as typeof import(…)`), not when the CLI
  // starts: `freshet --help` or `validate` need not load the crawler, the clients and the models.
  // Synchronous require, not import(): the CLI is CommonJS and tests run commands in-process.
  { files: ['src/cli/commands/*.ts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  { files: ['**/*.js', '**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly', console: 'readonly' } } },
);
