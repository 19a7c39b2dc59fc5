import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isEnumType, isInputObjectType, isObjectType, isScalarType } from 'graphql';
import { printedSchema } from '../../src/graphql/print.js';
import { schema } from '../../src/graphql/schema/index.js';
import { ENDPOINTS } from '../../src/rest/endpoints/index.js';
import { FIELD_OF_PATH, REST_NAME } from '../support/api-names.js';

/** Arguments one surface has by design: keyset against offset paging. */
const PAGING = { graphql: ['first', 'after', 'last', 'before'], rest: ['limit', 'offset'] };
/** GraphQL-only arguments by design, per field: the flow basis (REST /flows classifies physical flows). */
const GRAPHQL_ONLY: Record<string, string[]> = { flows: ['basis'] };

describe('schema.graphql', () => {
  it('is the schema printed from the Pothos code (run npm run schema:print after changing it)', () => {
    expect(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema());
  });

  it('documents every type, field, argument and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith('__') ||
        (isScalarType(type) && !type.description && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))
      )
        continue;
      if (!type.description) missing.push(type.name);
      if (isEnumType(type))
        for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
      if (!isObjectType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : [])
          if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('gives every REST endpoint a root field with the same arguments', () => {
    const fields = schema.getQueryType()!.getFields();
    for (const endpoint of ENDPOINTS) {
      const name = FIELD_OF_PATH[endpoint.path] ?? endpoint.path;
      const field = fields[name];
      expect(field, endpoint.path).toBeDefined();
      const args = field!.args
        .map((a) => a.name)
        .filter((n) => !PAGING.graphql.includes(n) && !(GRAPHQL_ONLY[name] ?? []).includes(n))
        .map((n) => REST_NAME[n] ?? n);
      expect(args.sort(), endpoint.path).toEqual(
        Object.keys(endpoint.query.shape)
          .filter((n) => !PAGING.rest.includes(n))
          .sort(),
      );
    }
  });
});
