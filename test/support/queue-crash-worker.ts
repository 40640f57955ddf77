/**
 * A worker process for the crash test: works `name` on the SQLite file `path`, printing
 * `start <id>` and `end <id>` around a slow handler, until the test kills it with SIGKILL.
 */
import { openDatabase } from '../../adapters/persistence/open-database.js';
import { createLocalJobQueue } from '../../adapters/queue/local/local-job-queue.js';
import { silentLogger } from '../contract/persistence-fixture.js';

const [path, name] = process.argv.slice(2);
if (!path || !name) throw new Error('usage: queue-crash-worker <sqlite path> <queue name>');
const { db } = openDatabase(path, silentLogger);
const queue = createLocalJobQueue({ db, logger: silentLogger, leaseMs: 400, pollIntervalMs: 20 });
await queue.work(
  name,
  async (job) => {
    process.stdout.write(`start ${job.id}\n`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.stdout.write(`end ${job.id}\n`);
  },
  { concurrency: 4 },
);
process.stdout.write('ready\n');
