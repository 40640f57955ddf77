import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../../api';
import { useSession } from '../../session';
import type { User } from '../../types';
import {
  Badge,
  FormErrors,
  formatDate,
  InputField,
  LoadError,
  Loading,
  Pagination,
  Table,
  useAction,
  useId,
  useLoad,
} from '../../ui';
import { AdminPage } from './admin-page';

interface Role {
  id: string;
  name: string;
}

export const AdminUsers = () => {
  const { user: me } = useSession();
  const [page, setPage] = useState(1);
  const users = useLoad(() => api.get<User[]>(`/admin/users?page=${page}`), [page]);
  const roles = useLoad(() => api.get<Role[]>('/admin/roles').then((r) => r.data), []);
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState('');
  const [invited, setInvited] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<FieldErrors>({});
  const invite = useAction();
  const roleSelect = useId('role');
  return (
    <AdminPage title="Users">
      <form
        class="card"
        aria-label="Invite a user"
        onSubmit={async (e) => {
          e.preventDefault();
          const answer = await invite.run(() =>
            api.post<User & { acceptInvitationUrl?: string }>('/admin/users', { fullName, email, roleId }),
          );
          if (answer) {
            setInvited(answer.data.acceptInvitationUrl ?? '');
            setFullName('');
            setEmail('');
            users.reload();
          }
        }}
      >
        <h2>Invite a user</h2>
        <FormErrors errors={invite.errors} fields={['fullName', 'email', 'roleId']} />
        {invited !== null && (
          <p class="alert alert-success" role="status">
            Invitation sent.{' '}
            {invited && (
              <>
                They can also open this link: <code>{invited}</code>
              </>
            )}
          </p>
        )}
        <div class="grid-3">
          <InputField
            label="Full name"
            name="fullName"
            value={fullName}
            onValue={setFullName}
            errors={invite.errors}
            required
          />
          <InputField
            label="E-mail"
            name="email"
            type="email"
            value={email}
            onValue={setEmail}
            errors={invite.errors}
            required
          />
          <div class="field">
            <label for={roleSelect}>Role</label>
            <select id={roleSelect} value={roleId} onChange={(e) => setRoleId(e.currentTarget.value)} required>
              <option value="">Choose a role…</option>
              {roles.data?.map((role) => (
                <option key={role.id} value={role.id}>
                  {role.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" class="primary" disabled={invite.busy}>
          Invite
        </button>
      </form>
      <FormErrors errors={rowErrors} />
      {users.loading && !users.data && <Loading />}
      {users.error && <LoadError errors={users.error} retry={users.reload} />}
      {users.data && (
        <>
          <Table columns={['Name', 'E-mail', 'Role', 'Status', 'Since']}>
            {users.data.data.map((user) => (
              <tr key={user.id}>
                <td>{user.fullName}</td>
                <td>{user.email}</td>
                <td>{user.role?.name ?? '–'}</td>
                <td>
                  <Badge status={user.status} />
                </td>
                <td>{formatDate(user.createdAt)}</td>
                <td>
                  {user.id !== me.id && (
                    <button
                      type="button"
                      class="danger"
                      onClick={() => {
                        if (!confirm(`Remove ${user.fullName}?`)) return;
                        api
                          .delete(`/admin/users/${user.id}`)
                          .then(users.reload, (error: unknown) => setRowErrors(errorsOf(error)));
                      }}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
          <Pagination page={page} totalPages={users.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </AdminPage>
  );
};
