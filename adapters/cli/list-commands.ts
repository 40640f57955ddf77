import type { FlowView } from '../../core/application/flows/flow-views.js';
import type { UseCases } from '../../core/application/use-cases.js';
import type { Actor } from '../../core/domain/actor.js';
import { flowStatus } from '../../core/domain/flow.js';
import type { Page, PageRequest } from '../../core/domain/page.js';
import type { UserWithRole } from '../../core/domain/user.js';
import { type CliIo, help, parse, required } from './command-line.js';
import { actorFor, CONFIGURED, succeeded } from './database-command.js';
import type { CliHost } from './host.js';

export const LIST_FLOWS_USAGE = `Usage: conveyor list-flows [--user <email>] [--json]

Lists the flows of the instance: id, name, status (draft, published or paused) and owner, most
recently changed first. With --user, only the flows that user owns. It acts as the instance's
administrator, or with --user as that active user, through the same rules as GET /api/v1/flows.
${CONFIGURED}

Options:
  --user <email>  Only this active user's own flows
  --json          One JSON array instead of the table
  -h, --help      Show this help
`;

export const LIST_USERS_USAGE = `Usage: conveyor list-users [--json]

Lists the users of the instance: id, email, full name, role and status (active or invited),
oldest first, as GET /api/v1/admin/users does for the instance's administrator.
${CONFIGURED}

Options:
  --json      One JSON array instead of the table
  -h, --help  Show this help
`;

const PER_PAGE = 100;

/** Every page of a listing, in order. */
const allPages = async <T>(pageOf: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> => {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const next = await pageOf({ page, perPage: PER_PAGE });
    items.push(...next.items);
    if (next.items.length === 0 || page * PER_PAGE >= next.total) return items;
  }
};

/** Every user, as the administrator `actor` reads them. */
const allUsers = (useCases: UseCases, actor: Actor): Promise<UserWithRole[]> =>
  allPages(async (page) => succeeded(await useCases.listUsers(actor, page), 'Cannot list users'));

/** Rows under their headings, each column as wide as its widest cell; the last is not padded. */
const table = (headings: readonly string[], rows: readonly (readonly string[])[]): string => {
  const widths = headings.map((heading, i) => Math.max(heading.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[headings, ...rows].map(line).join('\n')}\n`;
};

/** A column of the table: its heading and the field of the row it shows. */
type Column<T> = readonly [heading: string, field: keyof T];

/** The rows as a table under headings, or with --json as one JSON array of the rows. */
const print = <T extends Record<string, string>>(
  io: CliIo,
  json: boolean,
  rows: readonly T[],
  columns: readonly Column<T>[],
  what: string,
) => {
  if (json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    io.stderr.write(`No ${what}.\n`);
    return;
  }
  io.stdout.write(
    table(
      columns.map(([heading]) => heading),
      rows.map((row) => columns.map(([, field]) => row[field] ?? '')),
    ),
  );
};

type FlowRow = { readonly id: string; readonly name: string; readonly status: string; readonly owner: string };
const FLOW_COLUMNS: readonly Column<FlowRow>[] = [
  ['ID', 'id'],
  ['STATUS', 'status'],
  ['OWNER', 'owner'],
  ['NAME', 'name'],
];

export const listFlows = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const values = parse(args, { ...help, user: { type: 'string' }, json: { type: 'boolean' } }, LIST_FLOWS_USAGE);
  if (values.help) {
    io.stdout.write(LIST_FLOWS_USAGE);
    return 0;
  }
  const email = values.user === undefined ? undefined : required(values.user, '--user', LIST_FLOWS_USAGE);
  const rows = await host.withUseCases(io, async (useCases): Promise<FlowRow[]> => {
    const actor = await actorFor(useCases, email);
    const flows: FlowView[] = await allPages(async (page) =>
      succeeded(await useCases.listFlows(actor, { onlyOwnedFlows: email !== undefined }, page), 'Cannot list flows'),
    );
    // Owners by email: the administrator reads every user; a user named by --user owns every flow shown.
    const emails = new Map<string, string>(
      email === undefined
        ? (await allUsers(useCases, actor)).map((user) => [user.id, user.email])
        : [[actor.user.id, actor.user.email]],
    );
    return flows.map((flow) => ({
      id: flow.id,
      name: flow.name,
      status: flowStatus(flow),
      owner: emails.get(flow.userId) ?? flow.userId,
    }));
  });
  print(io, values.json === true, rows, FLOW_COLUMNS, 'flows');
  return 0;
};

type UserRow = {
  readonly id: string;
  readonly email: string;
  readonly fullName: string;
  readonly role: string;
  readonly status: string;
};
const USER_COLUMNS: readonly Column<UserRow>[] = [
  ['ID', 'id'],
  ['EMAIL', 'email'],
  ['ROLE', 'role'],
  ['STATUS', 'status'],
  ['FULL NAME', 'fullName'],
];

const userRow = (user: UserWithRole): UserRow => ({
  id: user.id,
  email: user.email,
  fullName: user.fullName,
  role: user.role.name,
  status: user.status,
});

export const listUsers = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const values = parse(args, { ...help, json: { type: 'boolean' } }, LIST_USERS_USAGE);
  if (values.help) {
    io.stdout.write(LIST_USERS_USAGE);
    return 0;
  }
  const users = await host.withUseCases(io, async (useCases) => allUsers(useCases, await actorFor(useCases)));
  print(io, values.json === true, users.map(userRow), USER_COLUMNS, 'users');
  return 0;
};
