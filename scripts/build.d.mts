/** True when an output of `target` is missing, or an input file is newer than its last build and the inputs' content differs (see build.mjs). */
export function isStale(target: 'app' | 'bench', root?: string): boolean;
/** SHA-256 (hex) of the input files of `target` (generated folders excepted): paths and contents. */
export function inputHash(target: 'app' | 'bench', root?: string): string;
