import type { UseCases } from '../../core/application/use-cases.js';

/**
 * The use cases an embedder calls: what the API and the command line offer users. The engine's own
 * (running and resuming executions, firing triggers, its maintenance) and the halves of HTTP routes
 * (webhook intake, resume URLs, billing notifications) stay out of the package's promise: `runs`
 * and `fetch` are their public faces, and they change with the engine.
 */
export type ConveyorUseCases = Omit<
  UseCases,
  | 'runExecution'
  | 'fireTrigger'
  | 'syncFlowTrigger'
  | 'listeners'
  | 'engine'
  | 'acceptWebhook'
  | 'answerSyncWebhook'
  | 'getWebhookResponse'
  | 'webhookRefusal'
  | 'signalRun'
  | 'checkResumeUrl'
  | 'checkAccess'
  | 'receiveBillingWebhook'
>;
