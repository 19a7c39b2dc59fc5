import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  ignoreNoDocuments: true,
  emitLegacyCommonJSImports: false,
  generates: {
    'test/gql/': {
      preset: 'client',
      config: { scalars: { DateTime: 'string' }, enumsAsTypes: true, useTypeImports: true },
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: 'sha256' } },
    },
  },
};

export default config;
