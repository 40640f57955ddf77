import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Where the CLI reads and writes; a test passes collectors, the entry point passes `process`. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** The configuration (DATABASE_URL, ...); process.env when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where a secret is read from when no variable carries it. */
  readonly stdin?: AsyncIterable<string | Buffer> & { readonly isTTY?: boolean };
}

/** A mistake in the command line: the message and the command's usage go to stderr, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/** A command that could not do its work (a file exists, a key cannot be read): exit 1. */
export class CommandError extends Error {}

export const help = { help: { type: 'boolean', short: 'h' } } as const;

type CommandOptions = NonNullable<ParseArgsConfig['options']>;
/** Named, because the declaration files cannot name @types/node's unexported result type. */
type Parsed<O extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>
>;

/** The options and positional arguments of a command; Node's parser errors become usage errors. */
export const parseCommand = <O extends CommandOptions>(
  args: string[],
  options: O,
  usage: string,
  allowPositionals = false,
): Parsed<O> => {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (error) {
    // Node's parser explains itself in its first sentence; the rest is advice meant for another audience.
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message.split('. ')[0] ?? '', usage);
    throw error;
  }
};

export const parse = <O extends CommandOptions>(args: string[], options: O, usage: string): Parsed<O>['values'] =>
  parseCommand(args, options, usage).values;

export const required = (value: string | undefined, flag: string, usage: string): string => {
  const trimmed = value?.trim();
  if (!trimmed) throw new UsageError(`${flag} is required.`, usage);
  return trimmed;
};

/** The one positional argument a command takes. */
export const single = (positionals: string[], what: string, usage: string): string => {
  if (positionals.length !== 1) throw new UsageError(`Give exactly one ${what}.`, usage);
  return positionals[0] ?? '';
};
