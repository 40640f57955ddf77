import type {
  SamlIdentityRepository,
  SamlMessageRepository,
  SamlSessionRepository,
} from '../../../ports/saml-repositories.js';
import type { Executor } from './executor.js';

export const createSamlIdentityRepository = ({ db, codec }: Executor): SamlIdentityRepository => ({
  async find(providerId, remoteId) {
    const row = await db
      .selectFrom('saml_identities')
      .select(['id', 'saml_auth_provider_id', 'remote_id', 'user_id'])
      .where('saml_auth_provider_id', '=', providerId)
      .where('remote_id', '=', remoteId)
      .executeTakeFirst();
    return row
      ? { id: row.id, samlAuthProviderId: row.saml_auth_provider_id, remoteId: row.remote_id, userId: row.user_id }
      : null;
  },

  async insert(identity) {
    await db
      .insertInto('saml_identities')
      .values({
        id: identity.id,
        saml_auth_provider_id: identity.samlAuthProviderId,
        remote_id: identity.remoteId,
        user_id: identity.userId,
        created_at: codec.timestamp(identity.now),
      })
      .execute();
  },

  async delete(id) {
    await db.deleteFrom('saml_identities').where('id', '=', id).execute();
  },
});

export const createSamlMessageRepository = ({ db, codec }: Executor): SamlMessageRepository => ({
  async saveRequest(request) {
    await db
      .insertInto('saml_requests')
      .values({
        id: request.requestId,
        saml_auth_provider_id: request.providerId,
        expires_at: codec.timestamp(request.expiresAt),
        created_at: codec.timestamp(request.now),
      })
      .execute();
  },

  async findRequest(providerId, requestId, now) {
    const row = await db
      .selectFrom('saml_requests')
      .select('created_at')
      .where('id', '=', requestId)
      .where('saml_auth_provider_id', '=', providerId)
      .where('expires_at', '>', codec.timestamp(now))
      .executeTakeFirst();
    return row ? codec.readTimestamp(row.created_at) : null;
  },

  async deleteRequest(providerId, requestId) {
    await db
      .deleteFrom('saml_requests')
      .where('id', '=', requestId)
      .where('saml_auth_provider_id', '=', providerId)
      .execute();
  },

  async consumeAssertion(providerId, assertionId, expiresAt) {
    const result = await db
      .insertInto('saml_used_assertions')
      .values({
        saml_auth_provider_id: providerId,
        assertion_id: assertionId,
        expires_at: codec.timestamp(expiresAt),
      })
      .onConflict((oc) => oc.columns(['saml_auth_provider_id', 'assertion_id']).doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  },

  async deleteExpired(now) {
    const at = codec.timestamp(now);
    const requests = await db.deleteFrom('saml_requests').where('expires_at', '<=', at).executeTakeFirst();
    const assertions = await db.deleteFrom('saml_used_assertions').where('expires_at', '<=', at).executeTakeFirst();
    return Number(requests.numDeletedRows + assertions.numDeletedRows);
  },
});

export const createSamlSessionRepository = ({ db, codec }: Executor): SamlSessionRepository => ({
  async insert(session) {
    await db
      .insertInto('saml_sessions')
      .values({
        access_token_id: session.accessTokenId,
        saml_auth_provider_id: session.providerId,
        name_id: session.nameId,
        session_index: session.sessionIndex,
        expires_at: codec.timestamp(session.expiresAt),
      })
      .execute();
  },

  async revokeTokens(providerId, nameId, sessionIndex, now) {
    let sessions = db
      .selectFrom('saml_sessions')
      .select('access_token_id')
      .where('saml_auth_provider_id', '=', providerId)
      .where('name_id', '=', nameId);
    if (sessionIndex !== null) sessions = sessions.where('session_index', '=', sessionIndex);
    const result = await db
      .updateTable('access_tokens')
      .set({ revoked_at: codec.timestamp(now) })
      .where('id', 'in', sessions)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  async deleteExpired(now) {
    const result = await db
      .deleteFrom('saml_sessions')
      .where('expires_at', '<=', codec.timestamp(now))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});
