import type { Actor } from '../../domain/actor.js';
import type { Credentials } from '../../domain/app.js';
import type { Connection } from '../../domain/connection.js';
import { type DomainError, forbidden, invalidInput, notFound } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { formattedDataErrors } from '../../engine/oauth-client.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';

export type ConnectionInput =
  | { readonly formattedData: Readonly<Record<string, unknown>>; readonly appAuthClientId?: undefined }
  | { readonly appAuthClientId: string; readonly formattedData?: undefined };

export const makeCreateConnection =
  ({ repos, uow, clock, ids, apps }: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'ids' | 'apps'>) =>
  async (actor: Actor, appKey: string, input: ConnectionInput): Promise<Result<Connection, DomainError>> => {
    const refused = authorize(actor, 'manage', 'Connection');
    if (refused) return err(refused);
    const app = apps.find(appKey);
    if (!app) return err(notFound('App'));
    if (app.auth.kind === 'none') return err(invalidInput({ general: [`${app.name} needs no connection.`] }));
    const config = await repos.appConfigs.find(appKey);
    if (config?.disabled) return err(forbidden(`${app.name} is disabled on this instance.`));

    let credentials: Credentials = {};
    let oauthClientId: string | null = null;
    if (input.appAuthClientId !== undefined) {
      const client = await repos.oauthClients.findById(input.appAuthClientId);
      if (!client?.active || client.appKey !== appKey) return err(notFound('OAuthClient'));
      oauthClientId = client.id;
    } else {
      if (config?.useOnlyPredefinedAuthClients) {
        return err(forbidden(`${app.name} connects only through an administrator's OAuth client.`));
      }
      const parsed =
        app.auth.kind === 'oauth2'
          ? apps.parseClientSettings(appKey, input.formattedData)
          : apps.parseAuthFields(appKey, input.formattedData);
      if (!parsed.ok) return err(formattedDataErrors(parsed.fields));
      credentials = parsed.value;
    }
    return uow.run(async (tx) =>
      ok(
        await tx.connections.insert({
          id: ids.next(),
          userId: actor.user.id,
          appKey,
          oauthClientId,
          credentials,
          now: clock.now(),
        }),
      ),
    );
  };
