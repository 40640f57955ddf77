import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import type { Flow, Step } from '../../domain/flow.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { PermissionAction } from '../../domain/role.js';
import { ownedRow } from '../load-owned.js';

/** A flow the actor may `action`: 404 when they cannot read it, 403 when they can only read it. */
export const loadFlow = async (
  repos: Repositories,
  actor: Actor,
  id: string,
  action: PermissionAction,
): Promise<Result<Flow, DomainError>> => ownedRow(await repos.flows.findById(id), actor, action, 'Flow');

/**
 * A step with its flow, under the permission conditions on the flow's owner. A step of a flow the
 * actor cannot read is reported as a missing step.
 */
export const loadStep = async (
  repos: Repositories,
  actor: Actor,
  id: string,
  action: PermissionAction,
): Promise<Result<{ readonly step: Step; readonly flow: Flow }, DomainError>> => {
  const step = await repos.steps.findById(id);
  if (!step) return err(notFound('Step'));
  const flow = await loadFlow(repos, actor, step.flowId, action);
  if (!flow.ok) return flow.error.code === 'resource.not_found' ? err(notFound('Step')) : flow;
  return ok({ step, flow: flow.value });
};
