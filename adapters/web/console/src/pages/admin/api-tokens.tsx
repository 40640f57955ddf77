import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../../api';
import type { Timestamp } from '../../types';
import { FormErrors, formatDate, LoadStatus, Table, useLoad } from '../../ui';
import { AdminPage } from './admin-page';

interface ApiToken {
  id: string;
  token: string;
  createdAt: Timestamp;
}

export const AdminApiTokens = () => {
  const tokens = useLoad(() => api.get<ApiToken[]>('/admin/api-tokens').then((r) => r.data), []);
  const [created, setCreated] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const act = (action: () => Promise<unknown>) => {
    setErrors({});
    action().then(tokens.reload, (e: unknown) => setErrors(errorsOf(e)));
  };
  return (
    <AdminPage
      title="API tokens"
      actions={
        <button
          type="button"
          class="primary"
          onClick={() =>
            act(async () => {
              const answer = await api.post<ApiToken>('/admin/api-tokens');
              setCreated(answer.data.token);
            })
          }
        >
          Create API token
        </button>
      }
    >
      <p class="hint">
        Programs send an API token as <code>X-Api-Token</code>; it acts with your administrator permissions.
      </p>
      <FormErrors errors={errors} />
      {created && (
        <div class="alert alert-success" role="status">
          <p>Copy the new token now: it is not shown again.</p>
          <code data-testid="new-api-token">{created}</code>
        </div>
      )}
      <LoadStatus of={tokens} />
      {tokens.data?.length === 0 && <p class="empty">No API token yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <Table columns={['Token', 'Created']}>
          {tokens.data.map((token) => (
            <tr key={token.id}>
              <td>
                <code>{token.token}</code>
              </td>
              <td>{formatDate(token.createdAt)}</td>
              <td class="row-actions">
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    confirm('Revoke this API token?') && act(() => api.delete(`/admin/api-tokens/${token.id}`))
                  }
                >
                  Revoke<span class="visually-hidden"> {token.token}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </AdminPage>
  );
};
