import { createPublicKey, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseIsoDate } from '../../core/domain/license.js';
import { type CliIo, CommandError, help, parse, required, UsageError } from './command-line.js';
import type { CliHost, LicenseSigner } from './host.js';

const DAY_MS = 24 * 60 * 60_000;
const MAX_DAYS = 36_500;
const PRIVATE_FILE = 'license-private.pem';
const PUBLIC_FILE = 'license-public.pem';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const GENERATE_USAGE = `Usage: conveyor generate-license-keys --out <dir>

Creates an Ed25519 key pair for signing enterprise licences:
  <dir>/${PRIVATE_FILE}  signs licences (file mode 0600): keep it secret, off servers and out of repositories
  <dir>/${PUBLIC_FILE}   verifies them: each server gets it as LICENSE_PUBLIC_KEY
<dir> is created when missing. Existing key files are never overwritten.

Options:
  --out <dir>  Directory to write the two files into (required)
  -h, --help   Show this help
`;

export const ISSUE_USAGE = `Usage: conveyor issue-license --private-key <file> --name <licensee>
                              (--expires <date> | --days <n>) [--id <uuid>]

Signs an enterprise licence and prints only the licence text on standard output (notes go to
standard error), so "conveyor issue-license ... > acme.license" captures exactly the licence.
The server reads it from LICENSE_KEY.

Options:
  --private-key <file>  The ${PRIVATE_FILE} written by generate-license-keys (required)
  --name <licensee>     Who the licence is for, shown by GET /api/v1/service/license (required)
  --expires <date>      Expiry: YYYY-MM-DD (00:00 UTC that day), or ISO-8601 with Z or an offset
  --days <n>            Expiry n whole days from now (1 to ${MAX_DAYS})
  --id <uuid>           Licence id (default: a random UUID)
  -h, --help            Show this help
`;

/** Writes a new key pair into `dir`, never replacing a file; answers the two paths. */
const writeKeyPair = (dir: string, licenses: LicenseSigner) => {
  const privatePath = join(dir, PRIVATE_FILE);
  const publicPath = join(dir, PUBLIC_FILE);
  for (const path of [privatePath, publicPath]) {
    if (existsSync(path)) {
      throw new CommandError(`${path} exists already; it is not overwritten. Move it away or choose another --out.`);
    }
  }
  // A new directory holds a private key, so only its owner may list it.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { publicKeyPem, privateKeyPem } = licenses.generateKeyPair();
  // 'wx' fails if another process created the file since the check above: nothing is ever replaced.
  writeFileSync(privatePath, privateKeyPem, { mode: 0o600, flag: 'wx' });
  try {
    writeFileSync(publicPath, publicKeyPem, { mode: 0o644, flag: 'wx' });
  } catch (error) {
    // A private key without its public half is useless; do not leave it lying around.
    unlinkSync(privatePath);
    throw error;
  }
  return { privatePath, publicPath, publicKeyPem };
};

export const generateLicenseKeys = (args: string[], io: CliIo, { licenses }: CliHost): number => {
  const values = parse(args, { ...help, out: { type: 'string' } }, GENERATE_USAGE);
  if (values.help) {
    io.stdout.write(GENERATE_USAGE);
    return 0;
  }
  const dir = resolve(required(values.out, '--out', GENERATE_USAGE));
  const { privatePath, publicPath, publicKeyPem } = writeKeyPair(dir, licenses);
  const rawPublicKey = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' }).subarray(-32);
  io.stdout.write(`Wrote ${privatePath} (mode 0600)
Wrote ${publicPath}

The private key signs licences. Keep it secret: not on the servers, not in a repository.

Next:
  1. Issue a licence:
       conveyor issue-license --private-key ${privatePath} --name "<licensee>" --days 365 > licence.txt
  2. On every server, set LICENSE_PUBLIC_KEY to the contents of ${publicPath},
     or to this one-line form of the same key:
       LICENSE_PUBLIC_KEY=${rawPublicKey.toString('base64')}
     and LICENSE_KEY to the licence text, then restart the server.
`);
  return 0;
};

const expiryOf = (values: { expires?: string; days?: string }, now: Date): Date => {
  if ((values.expires === undefined) === (values.days === undefined)) {
    throw new UsageError('Give exactly one of --expires and --days.', ISSUE_USAGE);
  }
  let expireAt: Date;
  if (values.days !== undefined) {
    const days = values.days.trim();
    if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > MAX_DAYS) {
      throw new UsageError(`--days must be a whole number from 1 to ${MAX_DAYS}, not '${values.days}'.`, ISSUE_USAGE);
    }
    expireAt = new Date(now.getTime() + Number(days) * DAY_MS);
  } else {
    const text = (values.expires ?? '').trim();
    const parsed = parseIsoDate(text);
    if (!parsed) {
      throw new UsageError(
        `--expires must be a date (YYYY-MM-DD) or an ISO-8601 date-time with Z or an offset, not '${text}'.`,
        ISSUE_USAGE,
      );
    }
    expireAt = parsed;
  }
  if (expireAt.getTime() <= now.getTime()) {
    throw new UsageError(`The expiry ${expireAt.toISOString()} is not in the future.`, ISSUE_USAGE);
  }
  return expireAt;
};

export const issueLicense = (args: string[], io: CliIo, { licenses }: CliHost): number => {
  const values = parse(
    args,
    {
      ...help,
      'private-key': { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      expires: { type: 'string' },
      days: { type: 'string' },
    },
    ISSUE_USAGE,
  );
  if (values.help) {
    io.stdout.write(ISSUE_USAGE);
    return 0;
  }
  const keyFile = required(values['private-key'], '--private-key', ISSUE_USAGE);
  const name = required(values.name, '--name', ISSUE_USAGE);
  const id = values.id === undefined ? randomUUID() : values.id.trim().toLowerCase();
  if (!UUID.test(id)) throw new UsageError(`--id must be a UUID, not '${values.id}'.`, ISSUE_USAGE);
  const expireAt = expiryOf(values, new Date());

  let privateKeyPem: string;
  try {
    privateKeyPem = readFileSync(keyFile, 'utf8');
  } catch (error) {
    throw new CommandError(`Cannot read the private key ${keyFile}: ${(error as Error).message}`);
  }
  let license: string;
  try {
    license = licenses.sign({ id, name, expireAt }, privateKeyPem);
  } catch (error) {
    throw new CommandError(`${keyFile}: ${(error as Error).message}`);
  }
  io.stdout.write(`${license}\n`);
  io.stderr.write(`Issued licence ${id} to "${name}", expiring ${expireAt.toISOString()}. Set it as LICENSE_KEY.\n`);
  return 0;
};
