import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/graphql/print.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema());
process.stdout.write('schema.graphql written\n');
