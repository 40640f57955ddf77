import type { AppCatalog } from '../../ports/app-catalog.js';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { Repositories } from '../../ports/repositories.js';
import type { RunObserver } from '../../ports/run-observer.js';
import type { StepRunner } from '../../ports/step-runner.js';
import type { UnitOfWork } from '../../ports/unit-of-work.js';
import type { EngineSettings } from './settings.js';

/**
 * What the engine may depend on: ports and its settings. The application's dependencies
 * (core/application/deps.ts) extend these, so that the engine never imports the application.
 */
export interface EngineDeps {
  readonly repos: Repositories;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly apps: AppCatalog;
  /** Runs apps' triggers and actions for the engine. */
  readonly runner: StepRunner;
  readonly queue: JobQueue;
  /** In [0, 1): retry jitter. */
  readonly random: () => number;
  readonly settings: { readonly engine: EngineSettings };
  /** Told of each run's end (an embedding application's events); none in the server. */
  readonly runObserver?: RunObserver | undefined;
}
