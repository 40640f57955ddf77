import type { Actor } from '../../domain/actor.js';
import { type DomainError, unauthenticated } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import type { PermissionAction, PermissionSubject } from '../../domain/role.js';
import { adminOnly, authorize } from '../../policy/authorize.js';
import { ownAccountOnly } from '../../policy/own-account.js';
import { loadOwnAgent } from '../agents/own-agent.js';
import { loadConnection } from '../connections/load-connection.js';
import type { CoreDeps } from '../deps.js';
import { loadExecution } from '../executions/execution-queries.js';
import { loadFlow, loadStep } from '../flows/load-flow.js';
import { loadOwnFolder } from '../folders/own-folder.js';
import { loadOwnForm } from '../forms/own-form.js';
import { alreadyInstalled } from '../installation/install-first-admin.js';
import { loadOwnMcpServer } from '../mcp-servers/own-mcp-server.js';

/**
 * What a request is about to act on, as far as who may send it goes. A driving adapter checks it
 * before it reads the request's input, so that a caller who may not act learns nothing of the
 * input's rules, nor whether a resource they cannot read exists. The use case checks again.
 */
export type Access =
  | { readonly to: 'installation' }
  | { readonly to: 'signed-in' }
  | { readonly to: 'administration' }
  | { readonly to: 'permission'; readonly action: PermissionAction; readonly subject: PermissionSubject }
  | { readonly to: 'own-account'; readonly userId: string }
  | {
      readonly to: 'flow' | 'step' | 'connection' | 'form' | 'agent' | 'mcp-server';
      readonly id: string;
      readonly action: PermissionAction;
    }
  | { readonly to: 'execution' | 'folder'; readonly id: string };

const verdict = (refused: DomainError | null): Result<void, DomainError> => (refused ? err(refused) : ok(undefined));
const outcome = (loaded: Result<unknown, DomainError>): Result<void, DomainError> =>
  loaded.ok ? ok(undefined) : loaded;

/** The same refusal, in the same order, that the use case behind the request would give first. */
export const makeCheckAccess =
  ({ repos }: Pick<CoreDeps, 'repos'>) =>
  async (actor: Actor | null, access: Access): Promise<Result<void, DomainError>> => {
    if (access.to === 'installation') {
      return verdict((await repos.config.get()).installationCompleted ? alreadyInstalled() : null);
    }
    if (!actor) return err(unauthenticated());
    switch (access.to) {
      case 'signed-in':
        return ok(undefined);
      case 'administration':
        return verdict(adminOnly(actor));
      case 'permission':
        return verdict(authorize(actor, access.action, access.subject));
      case 'own-account':
        return verdict(ownAccountOnly(actor, access.userId));
      case 'flow':
        return outcome(await loadFlow(repos, actor, access.id, access.action));
      case 'step':
        return outcome(await loadStep(repos, actor, access.id, access.action));
      case 'connection':
        return outcome(await loadConnection(repos, actor, access.id, access.action));
      case 'execution':
        return outcome(await loadExecution({ repos }, actor, access.id));
      case 'folder':
        return outcome(await loadOwnFolder(repos, actor, access.id));
      case 'form':
        return outcome(await loadOwnForm(repos, actor, access.id, access.action));
      case 'agent':
        return outcome(await loadOwnAgent(repos, actor, access.id, access.action));
      case 'mcp-server':
        return outcome(await loadOwnMcpServer(repos, actor, access.id, access.action));
    }
  };
