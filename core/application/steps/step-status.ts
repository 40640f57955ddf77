import type { AppCatalog } from '../../../ports/app-catalog.js';
import { requiresConnection } from '../../domain/app.js';
import type { FieldErrors } from '../../domain/errors.js';
import type { StepDefinition, StepStatus } from '../../domain/flow.js';
import { containsReference } from '../../domain/flow-rules.js';
import { definitionOf } from '../../engine/step-definition.js';

/** Why a step's app or key is not one the catalog has, by field; null when both are fine (or unset). */
export const unknownAppOrKey = (
  apps: AppCatalog,
  step: Pick<StepDefinition, 'type' | 'appKey' | 'key'>,
): FieldErrors | null => {
  if (step.appKey === null) return step.key === null ? null : { appKey: ['is required with a key.'] };
  if (!apps.find(step.appKey)) return { appKey: ['is not a known app.'] };
  if (step.key === null || definitionOf(apps, step)) return null;
  return { key: [`is not a ${step.type} of ${step.appKey}.`] };
};

export const appVersionOf = (apps: AppCatalog, appKey: string | null): number | null =>
  appKey === null ? null : (apps.find(appKey)?.version ?? null);

/**
 * A step is completed when it names a trigger or action its app has, has a connection if the app
 * requires one, and its parameters pass the arguments' checks. A parameter that takes a value from an
 * earlier step (`{{step.…}}`) is only known when the flow runs: it counts as given here.
 */
export const evaluateStep = (apps: AppCatalog, step: StepDefinition): StepStatus => {
  const found = definitionOf(apps, step);
  if (!found || step.key === null) return 'incomplete';
  if (requiresConnection(found.app) && step.connectionId === null) return 'incomplete';
  const errors = apps.checkStepParameters(found.app.key, step.type, step.key, step.parameters);
  const standing = Object.keys(errors ?? {}).filter((field) => !containsReference(step.parameters[field]));
  return standing.length === 0 ? 'completed' : 'incomplete';
};

/**
 * A stored step's status under the apps as they are now: a step saved as completed that its app
 * no longer accepts (a newer version changed the arguments) shows, and counts, as incomplete.
 */
export const currentStatus = (apps: AppCatalog, step: StepDefinition & { readonly status: StepStatus }): StepStatus =>
  step.status === 'completed' ? evaluateStep(apps, step) : step.status;
