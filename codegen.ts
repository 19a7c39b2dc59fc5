import type { CodegenConfig } from '@graphql-codegen/cli';

const scalars = { DateTime: 'string' };

const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: true,
  emitLegacyCommonJSImports: false,
  generates: {
    'test/gql/': {
      documents: ['test/**/*.ts', '!test/gql/**'],
      preset: 'client',
      config: { scalars, enumsAsTypes: true, useTypeImports: true },
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: 'sha256' } },
    },
    'src/dashboard/gql/': {
      documents: ['src/dashboard/**/*.graphql'],
      preset: 'client',
      config: { scalars, enumsAsTypes: true, useTypeImports: true, documentMode: 'string' },
      presetConfig: {
        fragmentMasking: false,
        persistedDocuments: { hashAlgorithm: 'sha256', mode: 'replaceDocumentWithHash' },
      },
    },
  },
};

export default config;
