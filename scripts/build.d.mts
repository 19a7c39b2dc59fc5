/** True when an output of `target` is missing or an input is newer than its last build's stamp (see build.mjs). */
export function isStale(target: 'app' | 'bench', root?: string): boolean;
