import type { CodegenConfig } from '@graphql-codegen/cli';
import { dashboardOutput, scalars } from './codegen.dashboard.js';

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
    ...dashboardOutput,
  },
};

export default config;
