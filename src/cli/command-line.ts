/**
 * The shared command-line contract of the CLIs (`keys`, `ingest`, `db:seed`, `db:migrate`, `bench`):
 * options parsed strictly with node's `util.parseArgs`; `--help` or `-h` prints the usage to stdout
 * and exits 0; a bad command line prints one line to stderr and exits 2; a configuration error
 * (invalid environment) exits 2 too; any other failure prints one line and exits 1.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../config.js';
import { warnIfUnsupportedNode } from '../node-version.js';

/** A command line that does not parse: exit code 2, one line on stderr. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command-line tool: its npm script, usage text and options (`help` is added). */
export interface CommandLine<O extends Options> {
  /** The npm script that runs it, e.g. `keys` or `db:seed`; prefixes every error line. */
  readonly script: string;
  /** The full usage text printed by `--help`. */
  readonly usage: string;
  readonly options: O;
  /** Whether arguments other than options are accepted (sub-commands, names); default false. */
  readonly positionals?: boolean;
}

/** The options of a command line, as `util.parseArgs` takes them. */
export type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/** Parses `argv` strictly against `cli.options` plus `--help`. @throws UsageError */
export function parseCommandLine<O extends Options>(cli: CommandLine<O>, argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: { ...cli.options, ...HELP },
      strict: true,
      allowPositionals: cli.positionals ?? false,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/** Where a CLI writes; the process's streams by default. */
export interface CliStreams {
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WritableStream;
  /** Whether the stack trace of an unexpected failure is printed too (LOG_LEVEL debug or trace). */
  readonly verbose?: () => boolean;
}

/** `text` on one line: line breaks (and the blanks around them) become `; `. */
export function oneLine(text: string): string {
  return text
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ');
}

/**
 * Warns on an unsupported Node.js version, parses `argv`, then runs `main` with the parsed values and positionals, applying the exit code
 * contract above. @returns the exit code (`main`'s own, or 0 when it returns nothing)
 */
export async function runCommandLine<O extends Options>(
  cli: CommandLine<O>,
  argv: readonly string[],
  main: (parsed: ReturnType<typeof parseCommandLine<O>>) => Promise<number | void>,
  streams: CliStreams = {},
): Promise<number> {
  const stdout = streams.stdout ?? process.stdout;
  const stderr = streams.stderr ?? process.stderr;
  warnIfUnsupportedNode(stderr);
  try {
    const parsed = parseCommandLine(cli, argv);
    if ((parsed.values as { help?: boolean }).help) {
      stdout.write(`${cli.usage.trimEnd()}\n`);
      return 0;
    }
    return (await main(parsed)) ?? 0;
  } catch (error) {
    const message = oneLine(error instanceof Error ? error.message : String(error));
    if (error instanceof UsageError) {
      stderr.write(`${cli.script}: ${message} (see npm run ${cli.script} -- --help)\n`);
      return 2;
    }
    stderr.write(`${cli.script}: ${message}\n`);
    if (error instanceof ConfigError) return 2;
    if (streams.verbose?.() && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
    return 1;
  }
}
