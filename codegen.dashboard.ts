import type { CodegenConfig } from '@graphql-codegen/cli';

/** GraphQL scalars as the generated TypeScript types see them (JSON). */
export const scalars = { DateTime: 'string' };

/**
 * The dashboard's generated types and persisted-documents manifest (src/dashboard/gql), alone:
 * what `npm run build:dashboard` needs, without reading the tests' documents. codegen.ts adds the
 * tests' output (test/gql) for `npm run codegen`.
 */
export const dashboardOutput: NonNullable<CodegenConfig['generates']> = {
  'src/dashboard/gql/': {
    documents: ['src/dashboard/**/*.graphql'],
    preset: 'client',
    config: { scalars, enumsAsTypes: true, useTypeImports: true, documentMode: 'string' },
    presetConfig: {
      fragmentMasking: false,
      persistedDocuments: { hashAlgorithm: 'sha256', mode: 'replaceDocumentWithHash' },
    },
  },
};

const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: true,
  emitLegacyCommonJSImports: false,
  generates: dashboardOutput,
};

export default config;
