import type { Selectable } from 'kysely';
import type { SamlAuthProvider, SamlAuthProviderFields, SamlSignatureAlgorithm } from '../../../core/domain/saml.js';
import type { SamlAuthProviderRepository } from '../../../ports/saml-repositories.js';
import type { SamlAuthProvidersTable } from '../schema.js';
import type { Executor } from './executor.js';

export const createSamlAuthProviderRepository = ({ db, codec }: Executor): SamlAuthProviderRepository => {
  const toProvider = (row: Selectable<SamlAuthProvidersTable>): SamlAuthProvider => ({
    id: row.id,
    name: row.name,
    certificate: row.certificate,
    signatureAlgorithm: row.signature_algorithm as SamlSignatureAlgorithm,
    issuer: row.issuer,
    entryPoint: row.entry_point,
    firstnameAttributeName: row.firstname_attribute_name,
    surnameAttributeName: row.surname_attribute_name,
    emailAttributeName: row.email_attribute_name,
    roleAttributeName: row.role_attribute_name,
    defaultRoleId: row.default_role_id,
    active: codec.readBool(row.active),
    createdAt: codec.readTimestamp(row.created_at),
    updatedAt: codec.readTimestamp(row.updated_at),
  });

  const columns = (fields: Partial<SamlAuthProviderFields>) => ({
    ...(fields.name !== undefined && { name: fields.name }),
    ...(fields.certificate !== undefined && { certificate: fields.certificate }),
    ...(fields.signatureAlgorithm !== undefined && { signature_algorithm: fields.signatureAlgorithm }),
    ...(fields.issuer !== undefined && { issuer: fields.issuer }),
    ...(fields.entryPoint !== undefined && { entry_point: fields.entryPoint }),
    ...(fields.firstnameAttributeName !== undefined && { firstname_attribute_name: fields.firstnameAttributeName }),
    ...(fields.surnameAttributeName !== undefined && { surname_attribute_name: fields.surnameAttributeName }),
    ...(fields.emailAttributeName !== undefined && { email_attribute_name: fields.emailAttributeName }),
    ...(fields.roleAttributeName !== undefined && { role_attribute_name: fields.roleAttributeName }),
    ...(fields.defaultRoleId !== undefined && { default_role_id: fields.defaultRoleId }),
    ...(fields.active !== undefined && { active: codec.bool(fields.active) }),
  });

  const one = async (column: 'id' | 'issuer', value: string) => {
    const row = await db.selectFrom('saml_auth_providers').selectAll().where(column, '=', value).executeTakeFirst();
    return row ? toProvider(row) : null;
  };

  return {
    async list({ activeOnly }) {
      let query = db.selectFrom('saml_auth_providers').selectAll();
      if (activeOnly) query = query.where('active', '=', codec.bool(true));
      return (await query.orderBy('name').orderBy('id').execute()).map(toProvider);
    },

    findById: (id) => one('id', id),
    findByIssuer: (issuer) => one('issuer', issuer),

    async insert(provider) {
      const now = codec.timestamp(provider.now);
      const row = {
        id: provider.id,
        name: provider.name,
        certificate: provider.certificate,
        signature_algorithm: provider.signatureAlgorithm,
        issuer: provider.issuer,
        entry_point: provider.entryPoint,
        firstname_attribute_name: provider.firstnameAttributeName,
        surname_attribute_name: provider.surnameAttributeName,
        email_attribute_name: provider.emailAttributeName,
        role_attribute_name: provider.roleAttributeName,
        default_role_id: provider.defaultRoleId,
        active: codec.bool(provider.active),
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('saml_auth_providers').values(row).execute();
      return toProvider(row);
    },

    async update(id, changes, now) {
      await db
        .updateTable('saml_auth_providers')
        .set({ ...columns(changes), updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .execute();
    },

    async countByDefaultRole(roleId) {
      const { count } = await db
        .selectFrom('saml_auth_providers')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('default_role_id', '=', roleId)
        .executeTakeFirstOrThrow();
      return codec.readInt(count as string | number);
    },

    async listRoleMappings(providerId) {
      const rows = await db
        .selectFrom('saml_role_mappings')
        .select(['id', 'saml_auth_provider_id', 'role_id', 'remote_role_name'])
        .where('saml_auth_provider_id', '=', providerId)
        .orderBy('position')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        samlAuthProviderId: row.saml_auth_provider_id,
        roleId: row.role_id,
        remoteRoleName: row.remote_role_name,
      }));
    },

    async replaceRoleMappings(providerId, mappings, now) {
      await db.deleteFrom('saml_role_mappings').where('saml_auth_provider_id', '=', providerId).execute();
      if (mappings.length === 0) return;
      const at = codec.timestamp(now);
      await db
        .insertInto('saml_role_mappings')
        .values(
          mappings.map((mapping, position) => ({
            id: mapping.id,
            saml_auth_provider_id: providerId,
            role_id: mapping.roleId,
            remote_role_name: mapping.remoteRoleName,
            position,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    },
  };
};
