import type { Actor } from '../../domain/actor.js';
import {
  type AppCapability,
  type AppCategory,
  type AppDescription,
  needsConnection,
  type StepDescription,
} from '../../domain/app.js';
import type { AppConfig, OAuthClient } from '../../domain/app-config.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { authorize, ownAccountOnly, scopeOf } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';

export interface AppFilter {
  readonly name?: string | undefined;
  readonly onlyWithTriggers?: boolean | undefined;
  readonly onlyWithActions?: boolean | undefined;
  /** The app picker's category (APP_CATEGORIES). */
  readonly category?: AppCategory | undefined;
  readonly capability?: AppCapability | undefined;
}

export interface Substep {
  readonly key: 'chooseConnection' | 'chooseTrigger' | 'chooseAction' | 'testStep';
  readonly name: string;
  readonly arguments?: StepDescription['arguments'];
}

export interface UserApp {
  readonly key: string;
  readonly name: string;
  readonly iconUrl: string;
  readonly connectionCount: number;
  readonly flowCount: number;
}

/** Reads of the app catalog and of what the instance and the caller hold for an app. */
export const makeAppQueries = ({ repos, apps }: Pick<CoreDeps, 'repos' | 'apps'>) => {
  const app = (key: string): Result<AppDescription, DomainError> => {
    const found = apps.find(key);
    return found ? ok(found) : err(notFound('App'));
  };

  const substeps = (kind: 'trigger' | 'action', appKey: string, stepKey: string): Result<Substep[], DomainError> => {
    const found = app(appKey);
    if (!found.ok) return found;
    const step = (kind === 'trigger' ? found.value.triggers : found.value.actions).find((s) => s.key === stepKey);
    if (!step) return err(notFound(kind === 'trigger' ? 'Trigger' : 'Action'));
    return ok([
      ...(needsConnection(found.value) ? [{ key: 'chooseConnection', name: 'Choose connection' } as const] : []),
      kind === 'trigger'
        ? ({ key: 'chooseTrigger', name: 'Set up a trigger', arguments: step.arguments } as const)
        : ({ key: 'chooseAction', name: 'Set up action', arguments: step.arguments } as const),
      { key: 'testStep', name: kind === 'trigger' ? 'Test trigger' : 'Test action' },
    ]);
  };

  return {
    listApps: (filter: AppFilter): AppDescription[] => {
      const name = filter.name?.trim().toLowerCase();
      return apps
        .list()
        .filter((a) => !name || a.name.toLowerCase().includes(name))
        .filter((a) => !filter.onlyWithTriggers || a.triggers.length > 0)
        .filter((a) => !filter.onlyWithActions || a.actions.length > 0)
        .filter((a) => !filter.category || a.categories.includes(filter.category))
        .filter((a) => !filter.capability || (a.capabilities ?? []).includes(filter.capability));
    },
    getApp: app,
    triggerSubsteps: (appKey: string, triggerKey: string) => substeps('trigger', appKey, triggerKey),
    actionSubsteps: (appKey: string, actionKey: string) => substeps('action', appKey, actionKey),

    /**
     * The caller's connections of the app (all of them with an unconditional permission), except
     * drafts never verified; one whose later check failed is listed unverified, to be reconnected.
     */
    async listAppConnections(actor: Actor, appKey: string): Promise<Result<Connection[], DomainError>> {
      const refused = authorize(actor, 'read', 'Connection');
      if (refused) return err(refused);
      const found = app(appKey);
      if (!found.ok) return found;
      const scope = scopeOf(actor, 'read', 'Connection');
      const ownerId = scope.kind === 'own' ? scope.ownerId : null;
      return ok(await repos.connections.listByApp(appKey, { ownerId, drafts: false }));
    },

    async listUserApps(actor: Actor, userId: string): Promise<Result<UserApp[], DomainError>> {
      const refused = ownAccountOnly(actor, userId);
      if (refused) return err(refused);
      const connections = await repos.connections.countByApp(userId);
      const flows = await repos.flows.countByApp(userId);
      const count = (rows: typeof flows, appKey: string) => rows.find((r) => r.appKey === appKey)?.count ?? 0;
      // Apps the user connected or built a flow with, in the catalog's order.
      return ok(
        apps.list().flatMap((app) => {
          const connectionCount = count(connections, app.key);
          const flowCount = count(flows, app.key);
          return connectionCount + flowCount === 0
            ? []
            : [{ key: app.key, name: app.name, iconUrl: app.iconUrl, connectionCount, flowCount }];
        }),
      );
    },

    async getAppConfig(appKey: string): Promise<Result<AppConfig, DomainError>> {
      const config = app(appKey).ok ? await repos.appConfigs.find(appKey) : null;
      return config ? ok(config) : err(notFound('AppConfig'));
    },

    /** Active clients only: what a user may pick when connecting. */
    async listActiveOAuthClients(appKey: string): Promise<Result<OAuthClient[], DomainError>> {
      const found = app(appKey);
      return found.ok ? ok(await repos.oauthClients.listByApp(appKey, { activeOnly: true })) : found;
    },

    async getActiveOAuthClient(appKey: string, clientId: string): Promise<Result<OAuthClient, DomainError>> {
      const client = await repos.oauthClients.findById(clientId);
      if (!client?.active || client.appKey !== appKey) return err(notFound('OAuthClient'));
      const { settings: _secret, ...visible } = client;
      return ok(visible);
    },
  };
};
