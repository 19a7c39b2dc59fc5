import type { Plugin } from 'graphql-yoga';
import { editDistance } from '../domain/suggest.js';
import { routePath } from '../http/paths.js';

/** The response header naming the query parameters a REST request sent that its endpoint ignored. */
export const IGNORED_PARAMETERS_HEADER = 'X-Ignored-Parameters';

/** Names often written for a parameter under another name. */
const ALIASES: Readonly<Record<string, string>> = {
  from: 'datetime_from',
  to: 'datetime_to',
  start: 'datetime_from',
  end: 'datetime_to',
  timezone: 'tz',
  time_zone: 'tz',
  res: 'resolution',
};

/** The known parameter an unknown one most likely meant, or undefined when none is close. */
export function suggestParameter(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const alias = ALIASES[lower];
  if (alias && known.includes(alias)) return alias;
  const exact = known.find((k) => k === lower || k === lower.replaceAll('-', '_'));
  if (exact) return exact;
  const plural = known.find((k) => `${k}s` === lower || `${k}es` === lower);
  if (plural) return plural;
  const limit = Math.min(2, Math.floor(lower.length / 2));
  const near = known
    .map((k) => ({ k, d: editDistance(lower, k) }))
    .filter((c) => c.d <= limit)
    .sort((x, y) => x.d - y.d)[0];
  return near?.k;
}

/**
 * The header value of a query's ignored parameters, in the order first sent, each with its
 * suggestion (`zones (did you mean zone?), foo`); undefined when every parameter is known.
 */
export function ignoredParameters(params: URLSearchParams, known: readonly string[]): string | undefined {
  const unknown = [...new Set(params.keys())].filter((n) => !known.includes(n));
  if (!unknown.length) return undefined;
  return unknown
    .map((n) => {
      const shown = n.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c)).replaceAll(',', '%2C');
      const hint = suggestParameter(n, known);
      return hint ? `${shown} (did you mean ${hint}?)` : shown;
    })
    .join(', ');
}

/**
 * Adds {@link IGNORED_PARAMETERS_HEADER} to the answers of REST endpoints whose query held
 * parameters the endpoint does not know: they are still answered (FastAPI behaviour), and the
 * header tells what was left out. `known` maps each endpoint path to its parameter names.
 */
export function ignoredParametersPlugin(known: ReadonlyMap<string, readonly string[]>): Plugin {
  return {
    onResponse({ request, response }) {
      const url = new URL(request.url, 'http://localhost');
      const names = known.get(routePath(url.pathname));
      if (!names || url.search === '') return;
      const value = ignoredParameters(url.searchParams, names);
      if (value) response.headers.set(IGNORED_PARAMETERS_HEADER, value);
    },
  };
}
