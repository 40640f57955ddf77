import type { Clock } from '../../ports/clock.js';
import type { Repositories } from '../../ports/repositories.js';
import type { StepStore } from '../../ports/step-runner.js';

/**
 * A flow's durable key/value memory (the datastore app, a polling trigger's cursor). Each write
 * commits on its own: an app that wrote before failing keeps what it wrote.
 */
export const flowStore = (repos: Repositories, flowId: string, clock: Clock): StepStore => ({
  get: (key) => repos.flowStore.get(flowId, key),
  set: (key, value) => repos.flowStore.set(flowId, key, value, clock.now()),
});
