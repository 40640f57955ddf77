/**
 * The package's main entry point (`import { createConveyor } from 'conveyor'`). What it exports
 * is listed in api-report.md; a change there is a change of the package's promise (docs/embedding.md).
 */
export type { App } from '../../adapters/apps/sdk/index.js';
export type { AcceptedWebhook } from '../../core/application/executions/accept-webhook.js';
export type { ExecutionDetail } from '../../core/application/executions/execution-queries.js';
export type { InstallFirstAdminInput } from '../../core/application/installation/install-first-admin.js';
export type { Actor } from '../../core/domain/actor.js';
export type { DomainError } from '../../core/domain/errors.js';
export type { Result } from '../../core/domain/result.js';
export type { Clock } from '../../ports/clock.js';
export type { Logger } from '../../ports/logger.js';
export type { Mailer, MailMessage } from '../../ports/mailer.js';
export { ConfigError, type ConfigProblem } from '../config.js';
export { type Conveyor, createConveyor, type Runs, type TriggerRequest } from './conveyor.js';
export { ConveyorError, unwrap } from './errors.js';
export type { ConveyorOptions, LogLevel } from './options.js';
export type { ConveyorUseCases } from './public-use-cases.js';
export type { ExecutionEvent, ExecutionEventName, ExecutionListener } from './run-events.js';
