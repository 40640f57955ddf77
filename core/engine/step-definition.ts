import type { AppCatalog } from '../../ports/app-catalog.js';
import type { AppDescription, StepDescription } from '../domain/app.js';
import type { StepDefinition } from '../domain/flow.js';

/** The trigger or action a step names, when its app has it. */
export const definitionOf = (
  apps: AppCatalog,
  step: Pick<StepDefinition, 'type' | 'appKey' | 'key'>,
): { readonly app: AppDescription; readonly description: StepDescription } | null => {
  const app = step.appKey === null ? null : apps.find(step.appKey);
  const description = (step.type === 'trigger' ? app?.triggers : app?.actions)?.find((s) => s.key === step.key);
  return app && description ? { app, description } : null;
};
