import { type Field, restFields, type RowContract } from '../../src/contract/fields.js';
import { type RowTimeZone, wireValueOf, yearOf } from '../../src/contract/json.js';

const numberJson = (v: number | null): string => (v === null || !Number.isFinite(v) ? 'null' : String(v));

/** The JSON text of a field's value, written field kind by field kind. */
function jsonOf<R>(f: Field<R>, zoneOf?: RowTimeZone<R>): (row: R) => string {
  if (f.kind === 'year') {
    const year = yearOf(f.value, zoneOf);
    return (row) => numberJson(year(row));
  }
  if (f.kind === 'int' || f.kind === 'float') {
    const value = f.value;
    return (row) => numberJson(value(row));
  }
  if (f.kind === 'boolean') {
    const value = f.value;
    return (row) => String(value(row));
  }
  if (f.kind === 'object') {
    const [value, nested] = [f.value, rowJsonOf(f.contract)];
    return (row) => {
      const v = value(row);
      return v === null ? 'null' : nested(v);
    };
  }
  const wire = wireValueOf(f, zoneOf);
  return (row) => JSON.stringify(wire(row));
}

/**
 * The JSON text of a domain row assembled field by field as text: the independent path that the
 * server's wire rows (`wireRowOf` then `JSON.stringify`) are checked against.
 */
export function rowJsonOf<R>(contract: RowContract<R>, zoneOf?: RowTimeZone<R>): (row: R) => string {
  const parts = restFields(contract).map(
    (f, i) => [`${i === 0 ? '{' : ','}${JSON.stringify(f.rest)}:`, jsonOf(f, zoneOf)] as const,
  );
  return (row) => {
    let text = '';
    for (const [key, json] of parts) text += key + json(row);
    return `${text}}`;
  };
}
