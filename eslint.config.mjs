// ESLint: typescript-eslint's strict rules over the TypeScript sources (`make lint`); layout is prettier's job.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'cluster/**', 'data/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      // `const { dropped: _dropped, ...rest } = obj` omits a key; a leading underscore names what is left unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Unstructured objects are JSON maps: deleting a key by name is how a field is dropped (patches, defaults, conversion).
      '@typescript-eslint/no-dynamic-delete': 'off',
      // With noUncheckedIndexedAccess every index read is `T | undefined`; `!` marks an index the code has just
      // bounded (loops, regex groups that always match), which the compiler flag already makes explicit.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Tests read untyped response bodies.
    files: ['test/**/*.ts', '**/*.test.ts', '**/testing/**/*.ts', '**/*.fixture.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
