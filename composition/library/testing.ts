/**
 * The package's `conveyor/testing` entry point: an instance in memory for tests, and ways to run
 * one step of a custom app without a flow. Listed in api-report.md with the other entry points.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CapturingMailer } from '../../adapters/mail/capturing-mailer.js';
import { type Conveyor, createConveyor } from './conveyor.js';
import type { ConveyorOptions } from './options.js';

export {
  callAppTool,
  chatWithApp,
  type HookCall,
  type ListenCall,
  type ListenerProbe,
  listAppTools,
  listenWithApp,
  loadAppDynamicData,
  loadAppDynamicFields,
  registerAppHook,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  type StepCall,
  TEST_REDIRECT_URI,
  type TriggerCall,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
export { ManualClock } from '../../adapters/auth/manual-clock.js';
export { CapturingLogger, type LogEntry } from '../../adapters/logging/capturing-logger.js';
export { CapturingMailer } from '../../adapters/mail/capturing-mailer.js';

/** A started Conveyor for a test, and the mail it would have sent. */
export interface TestConveyor extends Conveyor {
  readonly mailer: CapturingMailer;
}

/**
 * A Conveyor on SQLite in memory that runs its flows in this process, logs nothing, keeps its
 * mail in `mailer` and may reach services on 127.0.0.1; started. `stop()` leaves nothing behind.
 * Options given replace these (a `clock`, more `environment`), except the database.
 */
export const createTestConveyor = async (options: Omit<ConveyorOptions, 'database'> = {}): Promise<TestConveyor> => {
  const directory = mkdtempSync(join(tmpdir(), 'conveyor-test-'));
  const mailer = new CapturingMailer();
  const conveyor = createConveyor({
    dataDirectory: directory,
    logLevel: 'silent',
    publicUrl: 'http://conveyor.test',
    mailer,
    ...options,
    database: ':memory:',
    worker: true,
    environment: { ALLOW_PRIVATE_NETWORKS: 'true', QUEUE: 'local', ...options.environment },
  });
  try {
    await conveyor.start();
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  // The conveyor's getters kept as getters: after stop() they throw as the conveyor's would.
  const same = Object.defineProperties({}, Object.getOwnPropertyDescriptors(conveyor)) as Conveyor;
  return Object.assign(same, {
    mailer,
    async stop() {
      try {
        await conveyor.stop();
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  });
};
