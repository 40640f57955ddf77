import { useState } from 'preact/hooks';
import { api } from '../../api';
import {
  CheckboxField,
  FieldError,
  FormErrors,
  InputField,
  Loading,
  LoadStatus,
  Table,
  useAction,
  useId,
  useLoad,
} from '../../ui';
import { AdminPage } from './admin-page';

interface Provider {
  id: string;
  name: string;
  certificate: string;
  signatureAlgorithm: 'sha1' | 'sha256' | 'sha512';
  issuer: string;
  entryPoint: string;
  firstnameAttributeName: string;
  surnameAttributeName: string;
  emailAttributeName: string;
  roleAttributeName: string;
  defaultRoleId: string;
  active: boolean;
}
interface Role {
  id: string;
  name: string;
}
interface Mapping {
  remoteRoleName: string;
  roleId: string;
}

const TEXT_FIELDS: [keyof Provider, string][] = [
  ['name', 'Name'],
  ['issuer', 'Issuer (entity id)'],
  ['entryPoint', 'Sign-in URL of the identity provider'],
  ['firstnameAttributeName', 'First name attribute'],
  ['surnameAttributeName', 'Surname attribute'],
  ['emailAttributeName', 'E-mail attribute'],
  ['roleAttributeName', 'Role attribute'],
];

const EMPTY = {
  name: '',
  certificate: '',
  signatureAlgorithm: 'sha256',
  issuer: '',
  entryPoint: '',
  firstnameAttributeName: 'firstName',
  surnameAttributeName: 'lastName',
  emailAttributeName: 'email',
  roleAttributeName: 'role',
  defaultRoleId: '',
  active: true,
} as const;

const ProviderForm = ({
  provider,
  roles,
  onDone,
}: {
  provider: Provider | null;
  roles: Role[];
  onDone: () => void;
}) => {
  const [values, setValues] = useState<Record<string, unknown>>(
    provider ? { ...provider } : { ...EMPTY, defaultRoleId: roles.find((r) => r.name === 'User')?.id ?? '' },
  );
  const { errors, busy, run } = useAction();
  const ids = { cert: useId('cert'), alg: useId('alg'), role: useId('role') };
  const set = (key: string) => (value: unknown) => setValues({ ...values, [key]: value });
  return (
    <form
      class="card"
      aria-label={provider ? `Edit ${provider.name}` : 'New identity provider'}
      onSubmit={async (e) => {
        e.preventDefault();
        const { id: _id, ...body } = values;
        const saved = await run(() =>
          provider
            ? api.patch(`/admin/saml-auth-providers/${provider.id}`, body)
            : api.post('/admin/saml-auth-providers', body),
        );
        if (saved) onDone();
      }}
    >
      <h2>{provider ? `Edit ${provider.name}` : 'New identity provider'}</h2>
      <FormErrors
        errors={errors}
        fields={[...TEXT_FIELDS.map(([k]) => k), 'certificate', 'signatureAlgorithm', 'defaultRoleId']}
      />
      <div class="grid-2">
        {TEXT_FIELDS.map(([key, label]) => (
          <InputField
            key={key}
            label={label}
            name={key}
            value={String(values[key] ?? '')}
            onValue={set(key)}
            errors={errors}
            required
          />
        ))}
        <div class="field">
          <label for={ids.alg}>Signature algorithm</label>
          <select
            id={ids.alg}
            value={String(values.signatureAlgorithm)}
            onChange={(e) => set('signatureAlgorithm')(e.currentTarget.value)}
          >
            <option value="sha256">SHA-256</option>
            <option value="sha512">SHA-512</option>
            <option value="sha1">SHA-1</option>
          </select>
        </div>
        <div class="field">
          <label for={ids.role}>Default role</label>
          <select
            id={ids.role}
            value={String(values.defaultRoleId)}
            onChange={(e) => set('defaultRoleId')(e.currentTarget.value)}
            required
          >
            <option value="">Choose a role…</option>
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
          <FieldError messages={errors.defaultRoleId} />
        </div>
      </div>
      <div class="field">
        <label for={ids.cert}>Signing certificate of the identity provider (PEM)</label>
        <textarea
          id={ids.cert}
          class="code"
          rows={6}
          value={String(values.certificate)}
          onInput={(e) => set('certificate')(e.currentTarget.value)}
          required
        />
        <FieldError messages={errors.certificate} />
      </div>
      <CheckboxField
        label="Active (shown on the sign-in page)"
        checked={values.active === true}
        onValue={set('active')}
      />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Save provider
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
};

const RoleMappings = ({ provider, roles }: { provider: Provider; roles: Role[] }) => {
  const mappings = useLoad(
    () => api.get<Mapping[]>(`/admin/saml-auth-providers/${provider.id}/role-mappings`).then((r) => r.data),
    [provider.id],
  );
  const [rows, setRows] = useState<Mapping[] | null>(null);
  const [saved, setSaved] = useState(false);
  const { errors, busy, run } = useAction();
  const current = rows ?? mappings.data ?? [];
  const update = (next: Mapping[]) => {
    setRows(next);
    setSaved(false);
  };
  if (mappings.loading) return <Loading />;
  return (
    <form
      class="subcard"
      aria-label={`Role mappings of ${provider.name}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const body = current.map(({ remoteRoleName, roleId }) => ({ remoteRoleName, roleId }));
        if (await run(() => api.patch(`/admin/saml-auth-providers/${provider.id}/role-mappings`, body))) setSaved(true);
      }}
    >
      <h3>Role mappings of {provider.name}</h3>
      <p class="hint">
        The first mapping whose remote role the user has decides their role; otherwise the default role.
      </p>
      <FormErrors errors={errors} />
      {current.map((row, index) => (
        <div class="key-value" key={index}>
          <input
            aria-label={`Remote role ${index + 1}`}
            value={row.remoteRoleName}
            onInput={(e) =>
              update(current.map((r, i) => (i === index ? { ...r, remoteRoleName: e.currentTarget.value } : r)))
            }
          />
          <select
            aria-label={`Role for remote role ${index + 1}`}
            value={row.roleId}
            onChange={(e) => update(current.map((r, i) => (i === index ? { ...r, roleId: e.currentTarget.value } : r)))}
          >
            <option value="">Choose…</option>
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
          <button type="button" class="small" onClick={() => update(current.filter((_, i) => i !== index))}>
            Remove<span class="visually-hidden"> mapping {index + 1}</span>
          </button>
        </div>
      ))}
      <div class="buttons">
        <button type="button" onClick={() => update([...current, { remoteRoleName: '', roleId: '' }])}>
          Add a mapping
        </button>
        <button type="submit" class="primary" disabled={busy}>
          Save mappings
        </button>
        {saved && <span role="status">Saved.</span>}
      </div>
    </form>
  );
};

export const AdminSaml = () => {
  const providers = useLoad(() => api.get<Provider[]>('/admin/saml-auth-providers').then((r) => r.data), []);
  const roles = useLoad(() => api.get<Role[]>('/admin/roles').then((r) => r.data), []);
  const [editing, setEditing] = useState<Provider | 'new' | null>(null);
  const [mapping, setMapping] = useState<Provider | null>(null);
  return (
    <AdminPage
      title="Single sign-on (SAML)"
      actions={
        providers.data && (
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            New provider
          </button>
        )
      }
    >
      {editing && roles.data && (
        <ProviderForm
          provider={editing === 'new' ? null : editing}
          roles={roles.data}
          onDone={() => {
            setEditing(null);
            providers.reload();
          }}
        />
      )}
      <LoadStatus of={providers} />
      {providers.data?.length === 0 && <p class="empty">No identity provider yet.</p>}
      {providers.data && providers.data.length > 0 && (
        <Table columns={['Name', 'Issuer', 'Active']}>
          {providers.data.map((provider) => (
            <tr key={provider.id}>
              <td>{provider.name}</td>
              <td>{provider.issuer}</td>
              <td>{provider.active ? 'Yes' : 'No'}</td>
              <td class="row-actions">
                <button type="button" onClick={() => setEditing(provider)}>
                  Edit<span class="visually-hidden"> {provider.name}</span>
                </button>
                <button type="button" onClick={() => setMapping(provider)}>
                  Role mappings<span class="visually-hidden"> of {provider.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {mapping && roles.data && <RoleMappings key={mapping.id} provider={mapping} roles={roles.data} />}
    </AdminPage>
  );
};
