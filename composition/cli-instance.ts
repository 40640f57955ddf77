import { readFileSync, writeFileSync } from 'node:fs';
import * as v from 'valibot';
import { renderFailure } from '../adapters/http/error-table.js';
import { installationSchema } from '../adapters/http/schemas/accounts.schemas.js';
import { exportDocumentSchema } from '../adapters/http/schemas/flows.schemas.js';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { migrateToLatest } from '../adapters/persistence/migrate.js';
import type { Actor } from '../core/domain/actor.js';
import type { DomainError } from '../core/domain/errors.js';
import type { Result } from '../core/domain/result.js';
import { type CliIo, CommandError, help, parse, parseCommand, required, UsageError } from './cli-support.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { buildContainer, resolve } from './container.js';
import { type Conveyor, createConveyor } from './conveyor.js';
import { prepareDataDirectory } from './data-directory.js';
import { explainStartupFailure } from './start-up-failure.js';
import { TOKENS } from './tokens.js';

const PASSWORD_VARIABLE = 'CONVEYOR_ADMIN_PASSWORD';

export const CONFIGURED = `It is configured by the same environment variables as conveyor start (DATABASE_URL,
ENCRYPTION_KEY, ...); its log lines go to standard error.`;

export const MIGRATE_USAGE = `Usage: conveyor migrate

Brings the schema of the database in DATABASE_URL up to date and exits; no server is started.
Prints how many migrations were applied. Safe to run again, and beside running servers.
${CONFIGURED}

Options:
  -h, --help  Show this help
`;

export const CREATE_ADMIN_USAGE = `Usage: conveyor create-admin --email <email> --full-name <name>

Completes the installation of a new instance with this administrator, as the first-run page
does. The password is read from the ${PASSWORD_VARIABLE} environment variable or, when that is
not set, from the first line of standard input; never from the command line, where other users
of the machine could see it:
  printf '%s\\n' "$PASSWORD" | conveyor create-admin --email ada@example.com --full-name "Ada L"
On an instance already installed it fails: administrators invite further users.
${CONFIGURED}

Options:
  --email <email>     The administrator's email address (required)
  --full-name <name>  The administrator's full name (required)
  -h, --help          Show this help
`;

export const EXPORT_FLOW_USAGE = `Usage: conveyor export-flow <flowId> --user <email> [--output <file>]

Writes the export document of a flow (JSON, as POST /api/v1/flows/{flowId}/export answers) to
standard output, or to <file>. It holds the steps and their parameters, no connections.
Its ids (the document's and the steps') are fresh ones, not the flow's: a webhook trigger's
address holds its flow's id, so a document passed on would otherwise hand out the address that
runs the flow. Automatisch exports the same way; an import makes a new flow in any case.
${CONFIGURED}

Options:
  --user <email>   Export as this active user, with their permissions (required)
  --output <file>  Write the document to this file instead (it is replaced when it exists)
  -h, --help       Show this help
`;

export const IMPORT_FLOW_USAGE = `Usage: conveyor import-flow <file> --user <email>

Imports an export document (as written by conveyor export-flow or the web app) as a new,
unpublished flow owned by the user, and prints the new flow's id. Use - for standard input.
${CONFIGURED}

Options:
  --user <email>  The active user who will own the flow (required)
  -h, --help      Show this help
`;

const configOf = (io: CliIo): Config => {
  try {
    return loadConfig(io.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandError(error.message);
    throw error;
  }
};

const loggerOf = (config: Config, io: CliIo) => createPinoLogger(config.logLevel, io.stderr);

/** Opens what `open` opens; a failure gets the one-line explanation a server's start gives. */
const opening = async <T>(config: Config, open: () => T | Promise<T>): Promise<T> => {
  try {
    return await open();
  } catch (error) {
    throw new CommandError(explainStartupFailure(error, config));
  }
};

/** Runs `work` against the instance the environment configures, without serving or running flows. */
export const withInstance = async <T>(io: CliIo, work: (conveyor: Conveyor) => Promise<T>): Promise<T> => {
  const config = configOf(io);
  const conveyor = await opening(config, () =>
    createConveyor(config, { logger: loggerOf(config, io) }, { worker: false }),
  );
  try {
    return await work(conveyor);
  } finally {
    await conveyor.close();
  }
};

/** The value of a use case's result, or its failure as one line (the HTTP error body's messages). */
export const succeeded = <T>(result: Result<T, DomainError>, context: string): T => {
  if (result.ok) return result.value;
  const messages = Object.entries(renderFailure(result.error).errors).flatMap(([field, list]) =>
    list.map((message) => (field === 'general' ? message : `${field} ${message}`)),
  );
  throw new CommandError(`${context}: ${messages.join('; ')}`);
};

/** The input as the HTTP API would accept it, or what is wrong with it on one line (never the values). */
const validated = <S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> => {
  const parsed = v.safeParse(schema, input, { abortPipeEarly: true });
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'document'} ${issue.message}`);
  throw new CommandError(`${what}: ${issues.join('; ')}`);
};

const single = (positionals: string[], what: string, usage: string): string => {
  if (positionals.length !== 1) throw new UsageError(`Give exactly one ${what}.`, usage);
  return positionals[0] ?? '';
};

export const migrate = async (args: string[], io: CliIo): Promise<number> => {
  if (parse(args, help, MIGRATE_USAGE).help) {
    io.stdout.write(MIGRATE_USAGE);
    return 0;
  }
  const config = configOf(io);
  const database = await opening(config, () => {
    prepareDataDirectory(config);
    return resolve(buildContainer(config, { logger: loggerOf(config, io) }), TOKENS.database);
  });
  try {
    const applied = await opening(config, () => migrateToLatest(database.db));
    io.stdout.write(
      applied.length === 0
        ? 'The database is up to date: no migration applied.\n'
        : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
};

/** The first line of standard input, without its line end. */
const readLine = async (io: CliIo): Promise<string> => {
  const stdin = io.stdin ?? process.stdin;
  // Typed input is echoed: the prompt says where it goes, the line is never written back.
  if (stdin.isTTY) io.stderr.write('Password: ');
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
};

export const createAdmin = async (args: string[], io: CliIo): Promise<number> => {
  const values = parse(
    args,
    { ...help, email: { type: 'string' }, 'full-name': { type: 'string' } },
    CREATE_ADMIN_USAGE,
  );
  if (values.help) {
    io.stdout.write(CREATE_ADMIN_USAGE);
    return 0;
  }
  const email = required(values.email, '--email', CREATE_ADMIN_USAGE);
  const fullName = required(values['full-name'], '--full-name', CREATE_ADMIN_USAGE);
  const user = await withInstance(io, async ({ useCases }) => {
    // Checked before the password is asked for, so that the refusal comes at once.
    if ((await useCases.getServiceInfo()).installationCompleted) {
      throw new CommandError(
        'Conveyor is already installed: administrators invite further users (the web app, or POST /api/v1/admin/users).',
      );
    }
    const password = (io.env ?? process.env)[PASSWORD_VARIABLE] || (await readLine(io));
    if (password === '') {
      throw new UsageError(`No password: set ${PASSWORD_VARIABLE} or write it on standard input.`, CREATE_ADMIN_USAGE);
    }
    const input = validated(installationSchema, { email, fullName, password }, 'Cannot create the administrator');
    return succeeded(await useCases.installFirstAdmin(input), 'Cannot create the administrator');
  });
  io.stdout.write(`Created the administrator ${user.email} (${user.id}); the installation is complete.\n`);
  return 0;
};

/** The active user with this email, or without one the instance's administrator. */
export const actorFor = async ({ useCases }: Conveyor, email?: string): Promise<Actor> =>
  succeeded(
    await useCases.operatorActor(email),
    email === undefined ? 'No active administrator' : `No active user ${email}`,
  );

export const exportFlow = async (args: string[], io: CliIo): Promise<number> => {
  const { values, positionals } = parseCommand(
    args,
    { ...help, output: { type: 'string' }, user: { type: 'string' } },
    EXPORT_FLOW_USAGE,
    true,
  );
  if (values.help) {
    io.stdout.write(EXPORT_FLOW_USAGE);
    return 0;
  }
  const flowId = single(positionals, 'flow id', EXPORT_FLOW_USAGE);
  const email = required(values.user, '--user', EXPORT_FLOW_USAGE);
  const output = values.output === undefined ? undefined : required(values.output, '--output', EXPORT_FLOW_USAGE);
  const document = await withInstance(io, async (conveyor) =>
    succeeded(await conveyor.useCases.exportFlow(await actorFor(conveyor, email), flowId), `Flow ${flowId}`),
  );
  const json = `${JSON.stringify(document, null, 2)}\n`;
  if (output === undefined) {
    io.stdout.write(json);
    return 0;
  }
  try {
    writeFileSync(output, json);
  } catch (error) {
    throw new CommandError(`Cannot write ${output}: ${(error as Error).message}`);
  }
  io.stderr.write(`Wrote the export of flow ${flowId} to ${output}\n`);
  return 0;
};

const readDocument = async (file: string, io: CliIo): Promise<unknown> => {
  let text: string;
  try {
    if (file === '-') {
      text = '';
      for await (const chunk of io.stdin ?? process.stdin) text += chunk.toString();
    } else {
      text = readFileSync(file, 'utf8');
    }
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandError(`${file} is not JSON: ${(error as Error).message}`);
  }
};

export const importFlow = async (args: string[], io: CliIo): Promise<number> => {
  const { values, positionals } = parseCommand(args, { ...help, user: { type: 'string' } }, IMPORT_FLOW_USAGE, true);
  if (values.help) {
    io.stdout.write(IMPORT_FLOW_USAGE);
    return 0;
  }
  const file = single(positionals, 'file', IMPORT_FLOW_USAGE);
  const email = required(values.user, '--user', IMPORT_FLOW_USAGE);
  const document = validated(exportDocumentSchema, await readDocument(file, io), `${file} is not an export document`);
  const flow = await withInstance(io, async (conveyor) =>
    succeeded(await conveyor.useCases.importFlow(await actorFor(conveyor, email), document), 'Cannot import'),
  );
  io.stdout.write(`${flow.id}\n`);
  io.stderr.write(`Imported "${flow.name}" as flow ${flow.id}, owned by ${email}.\n`);
  return 0;
};
