/** Characters a table cell shows at most. */
const CELL_CHARS = 40;

function cell(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const short = text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text;
  return short.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A Markdown table of rows (objects), columns in the first row's field order. Pure. */
export function textTable(rows: readonly unknown[]): string {
  const first = rows[0];
  if (!first || typeof first !== 'object') return rows.map(cell).join('\n');
  const columns = Object.keys(first);
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(columns),
    line(columns.map(() => '---')),
    ...rows.map((r) => line(columns.map((c) => cell((r as Record<string, unknown>)[c])))),
  ].join('\n');
}
