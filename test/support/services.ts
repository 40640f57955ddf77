import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const ci = process.env.CI === 'true' || process.env.CI === '1';

/** The servers the machine runs for the tests (README, "Testing"), by name. */
export const SERVICES = {
  rabbitmq: { port: 5672, start: 'rabbitmq-server -detached' },
  mariadb: { port: 3306, start: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd' },
  redis: { port: 6379, start: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no' },
  mosquitto: { port: 1883, start: 'mosquitto -d -c /etc/mosquitto/mosquitto.conf' },
  nats: { port: 4222, start: 'nats-server -a 127.0.0.1 -p 4222 -js (in the background)' },
  postgres: { port: 5432, start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start' },
} as const;

export type ServiceName = keyof typeof SERVICES;

/** Whether something accepts TCP connections on 127.0.0.1:`port` within `timeoutMs`. */
export const accepts = (port: number, timeoutMs = 1000): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1');
  });

/**
 * Whether the suite of a real server runs: true when the server answers. In CI an unreachable
 * server fails the file (its suite is mandatory); elsewhere the suite is skipped with a loud notice.
 * Use at a test file's top level: `describe.runIf(await serviceAvailable('rabbitmq'))(...)`.
 */
export const serviceAvailable = async (name: ServiceName): Promise<boolean> => {
  const { port, start } = SERVICES[name];
  if (await accepts(port)) return true;
  const message = `${name} is not reachable on 127.0.0.1:${port} (start it with: ${start})`;
  if (ci) throw new Error(`CI=true: ${message}; its suite is mandatory in CI.`);
  process.stderr.write(`\n*** ${message}: its suite is SKIPPED. ***\n\n`);
  return false;
};

/** A free TCP port on loopback (free when asked: a server started right after will usually get it). */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
};

/**
 * A server process of the tests' own (a second Mosquitto, NATS or Redis on a free port), so that a
 * test can stop and start it again, a real restart, without disturbing the machine's server that
 * other tests use at the same time.
 */
export interface PrivateServer {
  readonly port: number;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits until the port refuses connections. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
}

export const startPrivateServer = async (
  command: string,
  args: (port: number) => readonly string[],
  {
    port: wanted,
    readyTimeoutMs = 15_000,
    processGroup = false,
  }: {
    port?: number;
    readyTimeoutMs?: number;
    /**
     * Run it in a process group of its own and signal the whole group: for a server whose workers
     * would outlive its main process for a while (Dovecot's sessions), so that a stop stops them too.
     */
    processGroup?: boolean;
  } = {},
): Promise<PrivateServer> => {
  const port = wanted ?? (await freePort());
  let child: ChildProcess | null = null;
  let output = '';
  const start = async () => {
    output = '';
    const started = spawn(command, [...args(port)], { stdio: ['ignore', 'pipe', 'pipe'], detached: processGroup });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    });
    const deadline = Date.now() + readyTimeoutMs;
    while (!(await accepts(port, 200))) {
      if (started.exitCode !== null) throw new Error(`${command} exited (${started.exitCode}): ${output}`);
      if (Date.now() > deadline) throw new Error(`${command} did not accept connections on ${port}: ${output}`);
      await sleep(50);
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (running && running.exitCode === null && running.signalCode === null) {
      const exited = once(running, 'exit');
      const kill = (signal: NodeJS.Signals) => {
        try {
          if (processGroup && running.pid !== undefined) process.kill(-running.pid, signal);
          else running.kill(signal);
        } catch {
          // gone already
        }
      };
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    while (await accepts(port, 200)) await sleep(50);
  };
  await start();
  return { port, stop, start };
};
