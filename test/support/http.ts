import { loadConfig } from '../../composition/config.js';
import type { Overrides } from '../../composition/container.js';
import { type Instance, startInstance } from '../../composition/instance.js';
import { createTestDatabase, type DialectName, type TestDatabase } from './databases.js';

export interface ApiResponse {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Defaults to /api/v1. */
  readonly mount?: string;
}

export interface TestInstance {
  readonly conveyor: Instance;
  readonly database: TestDatabase;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Stops the instance and starts it again on the same database (SQLite: start it `onDisk`). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** JSON answers parsed; any other answer (an HTML page) as its text. */
const parseBody = (text: string, headers: Headers): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    if (/json/i.test(headers.get('content-type') ?? '')) throw error;
    return text;
  }
};

/** A whole Conveyor built by the real composition root, on a private database, served in-process. */
export const startTestInstance = async (
  dialect: DialectName,
  env: Record<string, string> = {},
  overrides: Overrides = {},
  /** `onDisk`: SQLite in a file, so that `rawQuery` can read what the instance stored. */
  options: { readonly onDisk?: boolean } = {},
): Promise<TestInstance> => {
  const database = await createTestDatabase(dialect, options);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    WEB_APP_URL: 'http://conveyor.test',
    DATABASE_POOL_SIZE: '4',
    // The queue in the application database starts in no time; the pg-boss suites ask for pg-boss.
    QUEUE: 'local',
    ...env,
  });
  let conveyor: Instance;
  try {
    conveyor = await startInstance(config, overrides);
  } catch (error) {
    await database.drop(); // a failed start must not leave its schema behind
    throw error;
  }
  return {
    get conveyor() {
      return conveyor;
    },
    database,
    async restart() {
      await conveyor.close();
      conveyor = await startInstance(config, overrides);
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await conveyor.app.request(`${options.mount ?? '/api/v1'}${path}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, body: parseBody(text, res.headers), headers: res.headers };
    },
    async close() {
      await conveyor.close();
      await database.drop();
    },
  };
};

export const ADMIN = { email: 'ada@example.com', password: 'correct horse battery', fullName: 'Ada Admin' } as const;
export const BOB = { email: 'bob@example.com', password: 'bob-password', fullName: 'Bob User' } as const;

/** Installs the first admin and signs in; returns the admin's token. */
export const installAndSignIn = async (instance: TestInstance): Promise<string> => {
  const installed = await instance.request('POST', '/installation/users', { body: ADMIN });
  if (installed.status !== 204) throw new Error(`installation failed: ${JSON.stringify(installed.body)}`);
  return signIn(instance, ADMIN.email, ADMIN.password);
};

export const signIn = async (instance: TestInstance, email: string, password: string): Promise<string> => {
  const res = await instance.request('POST', '/access-tokens', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
};

/** Switches self-registration on, as an admin would in the instance configuration. */
export const enableRegistration = async (instance: TestInstance, adminToken: string): Promise<void> => {
  const actor = await instance.conveyor.useCases.authenticate({ kind: 'access-token', token: adminToken });
  if (!actor) throw new Error('not an authenticated admin token');
  const result = await instance.conveyor.useCases.updateInstanceConfig(actor, { registrationEnabled: true });
  if (!result.ok) throw new Error(`could not enable registration: ${result.error.code}`);
};

/** Registers a user (registration must be on) and signs them in. */
export const registerAndSignIn = async (
  instance: TestInstance,
  user: { fullName: string; email: string; password: string },
): Promise<{ id: string; token: string }> => {
  const res = await instance.request('POST', '/users', { body: user });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, token: await signIn(instance, user.email, user.password) };
};
