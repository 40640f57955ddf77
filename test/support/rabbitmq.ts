import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The machine's test RabbitMQ (README, "Testing"; `serviceAvailable('rabbitmq')`). */
export const LOCAL_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

/** Runs `rabbitmqctl` with these arguments; its standard output. */
export const rabbitmqctl = async (...args: string[]): Promise<string> =>
  (await promisify(execFile)('rabbitmqctl', args)).stdout;

/** The broker's connections that carry this client-given name (`connection_name`): Erlang pid and heartbeat. */
export const brokerConnectionsNamed = async (name: string): Promise<{ pid: string; heartbeat: number }[]> => {
  const stdout = await rabbitmqctl(
    'list_connections',
    'pid',
    'timeout',
    'client_properties',
    '-q',
    '--no-table-headers',
  );
  return stdout
    .split('\n')
    .filter((line) => line.includes(`{"connection_name",${JSON.stringify(name)}}`))
    .map((line) => {
      const [pid = '', heartbeat = ''] = line.split('\t');
      return { pid, heartbeat: Number(heartbeat) };
    });
};

/** A queue's messages as the broker counts them: ready for a consumer, and delivered but not acknowledged. */
export const queueCounts = async (queue: string): Promise<{ ready: number; unacknowledged: number } | null> => {
  const stdout = await rabbitmqctl(
    'list_queues',
    'name',
    'messages_ready',
    'messages_unacknowledged',
    '-q',
    '--no-table-headers',
  );
  for (const line of stdout.split('\n')) {
    const [name, ready, unacknowledged] = line.split('\t');
    if (name === queue) return { ready: Number(ready), unacknowledged: Number(unacknowledged) };
  }
  return null;
};
