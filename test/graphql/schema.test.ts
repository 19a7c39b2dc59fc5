import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isInputObjectType, isObjectType, isScalarType } from 'graphql';
import { printedSchema } from '../../src/graphql/print.js';
import { schema } from '../../src/graphql/schema/index.js';

describe('schema.graphql', () => {
  it('is the schema printed from the Pothos code (run npm run schema:print after changing it)', () => {
    expect(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8')).toBe(printedSchema());
  });

  it('documents every type, field and argument', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || isScalarType(type) && !type.description && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description) missing.push(type.name);
      if (!isObjectType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
