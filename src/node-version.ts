/**
 * The Node.js versions the project supports (package.json `engines`), and the one warning printed
 * at start-up (server and CLIs) on any other version: npm's EBADENGINE warnings at install scroll
 * by, and an unsupported runtime otherwise fails later in ways that do not name the cause.
 */

/** package.json `engines.node`, kept equal to it by a test. */
export const SUPPORTED_NODE = '^22.12.0 || ^24.0.0';

const parse = (version: string): number[] =>
  version
    .replace(/^[v^]/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);

/** Whether `version` satisfies one of the caret ranges of {@link SUPPORTED_NODE}. */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = parse(version);
  return SUPPORTED_NODE.split('||').some((range) => {
    const [m = 0, n = 0, p = 0] = parse(range.trim());
    return major === m && (minor > n || (minor === n && patch >= p));
  });
}

/** The warning for `version` (default: the running one), or null when it is supported. */
export function unsupportedNodeWarning(version: string = process.versions.node): string | null {
  if (isSupportedNode(version)) return null;
  return `Warning: Node.js ${version} is not supported (this project needs ${SUPPORTED_NODE}); it may fail in unexpected ways. Install a supported Node.js version.\n`;
}

/** Writes the warning to stderr when the running Node.js is not supported. */
export function warnIfUnsupportedNode(stderr: NodeJS.WritableStream = process.stderr): void {
  const warning = unsupportedNodeWarning();
  if (warning) stderr.write(warning);
}
