import { type CliIo, CommandError, help, parse, required, UsageError } from './command-line.js';
import { CONFIGURED, succeeded } from './database-command.js';
import type { CliHost } from './host.js';
import { administratorInput } from './input.js';

const PASSWORD_VARIABLE = 'CONVEYOR_ADMIN_PASSWORD';

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

export const migrate = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  if (parse(args, help, MIGRATE_USAGE).help) {
    io.stdout.write(MIGRATE_USAGE);
    return 0;
  }
  const applied = await host.migrate(io);
  io.stdout.write(
    applied.length === 0
      ? 'The database is up to date: no migration applied.\n'
      : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}\n`,
  );
  return 0;
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

export const createAdmin = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
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
  const user = await host.withUseCases(io, async (useCases) => {
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
    const input = administratorInput({ email, fullName, password });
    return succeeded(await useCases.installFirstAdmin(input), 'Cannot create the administrator');
  });
  io.stdout.write(`Created the administrator ${user.email} (${user.id}); the installation is complete.\n`);
  return 0;
};

export const FORGET_CREDENTIALS_USAGE = `Usage: conveyor forget-credentials [--yes]

The way out when an encryption key is lost for good and the start is refused for it. Names the
connections and OAuth clients that no key of this configuration opens (ENCRYPTION_KEY or the key
file, and ENCRYPTION_KEYS_PREVIOUS); with --yes, deletes them, and the connections made through such
a client. Flows keep their steps; a step whose connection is deleted asks for a new one. Restoring
the key from a backup loses nothing: prefer it.
${CONFIGURED}

Options:
  --yes       Delete them (without it, only count them)
  -h, --help  Show this help
`;

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

export const forgetCredentials = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const values = parse(args, { ...help, yes: { type: 'boolean' } }, FORGET_CREDENTIALS_USAGE);
  if (values.help) {
    io.stdout.write(FORGET_CREDENTIALS_USAGE);
    return 0;
  }
  const apply = values.yes === true;
  const { connections, oauthClients } = await host.forgetCredentials(io, apply);
  const what = `${plural(connections, 'connection')} and ${plural(oauthClients, 'OAuth client')}`;
  if (connections + oauthClients === 0)
    io.stdout.write('Every stored credential opens with the keys given: nothing to forget.\n');
  else if (apply) io.stdout.write(`Deleted ${what} that no key given opens.\n`);
  else io.stdout.write(`${what} cannot be opened with the keys given. Run again with --yes to delete them.\n`);
  return 0;
};
