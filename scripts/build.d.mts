/** A build target of build.mjs: `app` builds `server` and `web`, `bench` builds `web` too. */
export type BuildTarget = 'app' | 'server' | 'web' | 'bench';
/** True when `target` or one of its parts has an output missing, no stamp, or an input file newer than its last build whose inputs' content differs (see build.mjs). */
export function isStale(target: BuildTarget, root?: string): boolean;
/** SHA-256 (hex) of the input files of `target`, one with steps of its own (generated folders excepted): paths and contents. */
export function inputHash(target: Exclude<BuildTarget, 'app'>, root?: string): string;
