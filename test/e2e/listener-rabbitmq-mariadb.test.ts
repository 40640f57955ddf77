import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, type DialectName } from '../support/databases.js';
import { openPipeline, until } from '../support/listener-pipeline.js';
import { brokerConnectionsNamed } from '../support/rabbitmq.js';
import { listeningPort, processDatabase, type ServerProcess, startBuiltCli } from '../support/server-process.js';
import { serviceAvailable } from '../support/services.js';

const MESSAGES = 1000;
/** Published before the broker closes the listener's connection; the rest after. */
const BEFORE_RESTART = 400;

/** SIGTERM, and SIGKILL if it has not ended within 10 s. */
const stopProcess = (started: ServerProcess) => async () => {
  started.child.kill('SIGTERM');
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 10_000);
  await started.exited;
  clearTimeout(timer);
};

/**
 * Conveyor from the build, as it is deployed: on SQLite one `conveyor start`; on Postgres a server
 * that runs no flows and two `conveyor worker`s, which hold the subscription and run the flows.
 */
const startConveyor = async (dialect: DialectName, cleanups: Array<() => Promise<void> | void>) => {
  const env = {
    ...(await processDatabase(dialect, cleanups)),
    ENCRYPTION_KEY: 'e'.repeat(64),
    ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const server = startBuiltCli(['start'], dialect === 'sqlite' ? env : { ...env, SERVER_RUNS_FLOWS: 'false' });
  cleanups.push(stopProcess(server));
  const base = `http://127.0.0.1:${await listeningPort(server)}`;
  const workers = dialect === 'sqlite' ? [] : [startBuiltCli(['worker'], env), startBuiltCli(['worker'], env)];
  for (const worker of workers) cleanups.push(stopProcess(worker));
  for (const worker of workers)
    await until(
      'a worker to run',
      async () => worker.output(),
      (out) => out.includes('Conveyor worker running'),
      20_000,
    );
  return { base, processes: [server, ...workers] };
};

const services = (await serviceAvailable('rabbitmq')) && (await serviceAvailable('mariadb'));

describe.runIf(services)('a RabbitMQ queue → MariaDB flow, in processes started from the build', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.each(DIALECTS)(
    '%s: 1,000 messages each insert one row, none lost or doubled, across the broker closing the subscription',
    { timeout: 120_000 },
    async (dialect) => {
      const conveyor = await startConveyor(dialect, cleanups);
      const pipeline = await openPipeline(conveyor.base);
      cleanups.push(() => pipeline.close());
      const name = `conveyor listener ${pipeline.queue}`;
      const [first] = await brokerConnectionsNamed(name);
      expect(first).toBeDefined();

      const startedAt = Date.now();
      await pipeline.publish(0, BEFORE_RESTART);
      // In the middle of the stream: runs stored, messages acknowledged, more in flight.
      await until(
        'the first runs',
        () => pipeline.executions(),
        (n) => n >= 100,
        30_000,
        50,
      );
      // As a broker restart would, from its side: the app must throw, and the engine reopen it.
      expect(await pipeline.closeListenerConnection('conveyor e2e restart')).toBe(true);
      await pipeline.publish(BEFORE_RESTART, MESSAGES);
      const back = await until(
        'the listener to listen again',
        pipeline.listener,
        (listener) => listener?.status === 'listening' && listener.lastError !== null,
        30_000,
      );
      expect(back).toMatchObject({
        status: 'listening',
        failures: 0,
        lastError: expect.stringContaining('CONNECTION_FORCED - conveyor e2e restart'),
      });
      const reopened = await brokerConnectionsNamed(name);
      expect(reopened).toHaveLength(1);
      expect(reopened[0]?.pid).not.toBe(first?.pid);

      const counts = await until(
        `${MESSAGES} runs to succeed`,
        async () => ({ success: await pipeline.executions('success'), failure: await pipeline.executions('failure') }),
        (c) => c.success >= MESSAGES || c.failure > 0,
        90_000,
        500,
      );
      expect(counts).toEqual({ success: MESSAGES, failure: 0 });
      const executions = await pipeline.allExecutions();
      expect(executions).toHaveLength(MESSAGES);
      expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
      const seconds = (Math.max(...executions.map((e) => e.finishedAt ?? Number.NaN)) - startedAt) / 1000;

      // Exactly one row per message: none lost, none inserted twice (the table has no unique key).
      expect(await pipeline.rows()).toEqual({ total: MESSAGES, ids: MESSAGES, ns: MESSAGES });
      // Every message acknowledged: none ready, none held unacknowledged by the consumer.
      expect(
        await until(
          'the queue to be empty',
          pipeline.queueState,
          (q) => q.ready === 0 && q.unacknowledged === 0,
          10_000,
        ),
      ).toEqual({ ready: 0, unacknowledged: 0, consumers: 1 });
      console.log(
        `listener e2e (${dialect}, ${conveyor.processes.length} process${conveyor.processes.length > 1 ? 'es' : ''}): ` +
          `${MESSAGES} messages in ${seconds.toFixed(1)} s, ${(MESSAGES / seconds).toFixed(0)} messages/s, ` +
          'connection closed by the broker once, 0 lost, 0 duplicated',
      );
    },
  );
});
