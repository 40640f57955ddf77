import type { Actor } from '../../domain/actor.js';
import type { AppConfig, OAuthClient } from '../../domain/app-config.js';
import { type DomainError, invalidInput, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { formattedDataErrors } from '../../engine/oauth-client.js';
import { adminOnly } from '../../policy/index.js';
import type { CoreDeps } from '../deps.js';

export interface AppConfigInput {
  readonly disabled?: boolean | undefined;
  readonly useOnlyPredefinedAuthClients?: boolean | undefined;
}

export interface OAuthClientInput {
  readonly name?: string | undefined;
  readonly active?: boolean | undefined;
  readonly formattedAuthDefaults?: Readonly<Record<string, unknown>> | undefined;
}

/** What administrators decide about apps: their configuration and their OAuth clients. */
export const makeAppAdministration = ({
  repos,
  uow,
  clock,
  ids,
  apps,
}: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'>) => {
  const guard = (actor: Actor, appKey: string): DomainError | null =>
    adminOnly(actor) ?? (apps.find(appKey) ? null : notFound('App'));

  const clientSettings = (appKey: string, input: Readonly<Record<string, unknown>>) => {
    const parsed = apps.parseClientSettings(appKey, input);
    return parsed.ok ? ok(parsed.value) : err(formattedDataErrors(parsed.fields));
  };

  const strip = ({ settings: _secret, ...client }: OAuthClient & { settings?: unknown }): OAuthClient => client;

  return {
    async createAppConfig(
      actor: Actor,
      appKey: string,
      input: AppConfigInput,
    ): Promise<Result<AppConfig, DomainError>> {
      const refused = guard(actor, appKey);
      if (refused) return err(refused);
      return uow.run(async (tx) =>
        ok(
          await tx.appConfigs.insert(
            {
              appKey,
              disabled: input.disabled ?? false,
              useOnlyPredefinedAuthClients: input.useOnlyPredefinedAuthClients ?? false,
            },
            clock.now(),
          ),
        ),
      );
    },

    async updateAppConfig(
      actor: Actor,
      appKey: string,
      input: AppConfigInput,
    ): Promise<Result<AppConfig, DomainError>> {
      const refused = guard(actor, appKey);
      if (refused) return err(refused);
      return uow.run(async (tx) => {
        if (!(await tx.appConfigs.find(appKey))) return err(notFound('AppConfig'));
        await tx.appConfigs.update(
          appKey,
          {
            ...(input.disabled !== undefined && { disabled: input.disabled }),
            ...(input.useOnlyPredefinedAuthClients !== undefined && {
              useOnlyPredefinedAuthClients: input.useOnlyPredefinedAuthClients,
            }),
          },
          clock.now(),
        );
        const updated = await tx.appConfigs.find(appKey);
        return updated ? ok(updated) : err(notFound('AppConfig'));
      });
    },

    async listOAuthClients(actor: Actor, appKey: string): Promise<Result<OAuthClient[], DomainError>> {
      const refused = guard(actor, appKey);
      return refused ? err(refused) : ok(await repos.oauthClients.listByApp(appKey, { activeOnly: false }));
    },

    async getOAuthClient(actor: Actor, appKey: string, clientId: string): Promise<Result<OAuthClient, DomainError>> {
      const refused = guard(actor, appKey);
      if (refused) return err(refused);
      const client = await repos.oauthClients.findById(clientId);
      return client?.appKey === appKey ? ok(strip(client)) : err(notFound('OAuthClient'));
    },

    async createOAuthClient(
      actor: Actor,
      appKey: string,
      input: OAuthClientInput,
    ): Promise<Result<OAuthClient, DomainError>> {
      const refused = guard(actor, appKey);
      if (refused) return err(refused);
      if (apps.find(appKey)?.auth.kind !== 'oauth2')
        return err(invalidInput({ general: ['This app does not use OAuth.'] }));
      const settings = clientSettings(appKey, input.formattedAuthDefaults ?? {});
      if (!settings.ok) return settings;
      return uow.run(async (tx) =>
        ok(
          await tx.oauthClients.insert({
            id: ids.next(),
            appKey,
            name: (input.name ?? '').trim(),
            active: input.active ?? true,
            settings: settings.value,
            now: clock.now(),
          }),
        ),
      );
    },

    async updateOAuthClient(
      actor: Actor,
      appKey: string,
      clientId: string,
      input: OAuthClientInput,
    ): Promise<Result<OAuthClient, DomainError>> {
      const refused = guard(actor, appKey);
      if (refused) return err(refused);
      const existing = await repos.oauthClients.findById(clientId);
      if (existing?.appKey !== appKey) return err(notFound('OAuthClient'));
      let settings: Readonly<Record<string, unknown>> | undefined;
      if (input.formattedAuthDefaults) {
        const parsed = clientSettings(appKey, { ...existing.settings, ...input.formattedAuthDefaults });
        if (!parsed.ok) return parsed;
        settings = parsed.value;
      }
      return uow.run(async (tx) => {
        await tx.oauthClients.update(
          clientId,
          {
            ...(input.name !== undefined && { name: input.name.trim() }),
            ...(input.active !== undefined && { active: input.active }),
            ...(settings && { settings }),
          },
          clock.now(),
        );
        const updated = await tx.oauthClients.findById(clientId);
        return updated ? ok(strip(updated)) : err(notFound('OAuthClient'));
      });
    },
  };
};
