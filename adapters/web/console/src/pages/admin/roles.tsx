import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../../api';
import { FormErrors, InputField, LoadError, LoadStatus, Table, useAction, useLoad } from '../../ui';
import { AdminPage } from './admin-page';

interface Permission {
  action: string;
  subject: string;
  conditions: string[];
}
interface Role {
  id: string;
  name: string;
  description: string | null;
  isAdmin: boolean;
  permissions: Permission[];
}
interface Catalog {
  actions: { key: string; label: string; subjects: string[] }[];
  subjects: { key: string; label: string }[];
  conditions: { key: string; label: string }[];
}

const RoleForm = ({ role, catalog, onDone }: { role: Role | null; catalog: Catalog; onDone: () => void }) => {
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [permissions, setPermissions] = useState<Permission[]>(role?.permissions ?? []);
  const { errors, busy, run } = useAction();
  const find = (action: string, subject: string) =>
    permissions.find((p) => p.action === action && p.subject === subject);
  const toggle = (action: string, subject: string, on: boolean) =>
    setPermissions(
      on
        ? [...permissions, { action, subject, conditions: [] }]
        : permissions.filter((p) => !(p.action === action && p.subject === subject)),
    );
  const toggleCondition = (action: string, subject: string, condition: string, on: boolean) =>
    setPermissions(
      permissions.map((p) =>
        p.action === action && p.subject === subject
          ? { ...p, conditions: on ? [...p.conditions, condition] : p.conditions.filter((c) => c !== condition) }
          : p,
      ),
    );
  return (
    <form
      class="card"
      aria-label={role ? `Edit role ${role.name}` : 'New role'}
      onSubmit={async (e) => {
        e.preventDefault();
        const body = { name, description, permissions };
        const saved = await run(() =>
          role ? api.patch(`/admin/roles/${role.id}`, body) : api.post('/admin/roles', body),
        );
        if (saved) onDone();
      }}
    >
      <h2>{role ? `Edit ${role.name}` : 'New role'}</h2>
      <FormErrors errors={errors} fields={['name', 'description']} />
      <InputField label="Name" name="name" value={name} onValue={setName} errors={errors} required />
      <InputField label="Description" name="description" value={description} onValue={setDescription} errors={errors} />
      <table class="table">
        <caption class="visually-hidden">Permissions</caption>
        <thead>
          <tr>
            <th scope="col">Permission</th>
            <th scope="col">Granted</th>
            {catalog.conditions.map((c) => (
              <th scope="col" key={c.key}>
                Only {c.label.toLowerCase()}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {catalog.actions.flatMap((action) =>
            action.subjects.map((subject) => {
              const granted = find(action.key, subject);
              const label = `${action.label} ${subject}`;
              return (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Grant ${label}`}
                      checked={!!granted}
                      onChange={(e) => toggle(action.key, subject, e.currentTarget.checked)}
                    />
                  </td>
                  {catalog.conditions.map((c) => (
                    <td key={c.key}>
                      <input
                        type="checkbox"
                        aria-label={`${label}: only ${c.label.toLowerCase()}`}
                        disabled={!granted}
                        checked={granted?.conditions.includes(c.key) ?? false}
                        onChange={(e) => toggleCondition(action.key, subject, c.key, e.currentTarget.checked)}
                      />
                    </td>
                  ))}
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Save role
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
};

export const AdminRoles = () => {
  const roles = useLoad(() => api.get<Role[]>('/admin/roles').then((r) => r.data), []);
  const catalog = useLoad(() => api.get<Catalog>('/admin/permissions/catalog').then((r) => r.data), []);
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const done = () => {
    setEditing(null);
    roles.reload();
  };
  return (
    <AdminPage
      title="Roles"
      actions={
        catalog.data && (
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            New role
          </button>
        )
      }
    >
      {catalog.error && <LoadError errors={catalog.error} />}
      <FormErrors errors={errors} />
      {editing && catalog.data && (
        <RoleForm role={editing === 'new' ? null : editing} catalog={catalog.data} onDone={done} />
      )}
      <LoadStatus of={roles} />
      {roles.data && (
        <Table columns={['Role', 'Permissions']}>
          {roles.data.map((role) => (
            <tr key={role.id}>
              <td>
                <strong>{role.name}</strong>
                <p class="muted">{role.description}</p>
              </td>
              <td>
                {role.isAdmin
                  ? 'Everything'
                  : role.permissions
                      .map((p) => `${p.action} ${p.subject}${p.conditions.length ? ' (own)' : ''}`)
                      .join(', ') || 'None'}
              </td>
              <td class="row-actions">
                {!role.isAdmin && catalog.data && (
                  <>
                    <button type="button" onClick={() => setEditing(role)}>
                      Edit<span class="visually-hidden"> {role.name}</span>
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => {
                        if (!confirm(`Delete the role ${role.name}?`)) return;
                        setErrors({});
                        api
                          .delete(`/admin/roles/${role.id}`)
                          .then(roles.reload, (e: unknown) => setErrors(errorsOf(e)));
                      }}
                    >
                      Delete<span class="visually-hidden"> {role.name}</span>
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </AdminPage>
  );
};
