import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../api';
import type { App, Connection } from '../types';
import { Badge, Empty, FormErrors, formatDate, LoadError, Loading, LoadStatus, Page, Table, useLoad } from '../ui';
import { ConnectionForm } from './connection-picker';

export const Connections = () => {
  const apps = useLoad(() => api.get<App[]>('/apps').then((r) => r.data.filter((a) => a.supportsConnections)), []);
  return (
    <Page title="Connections">
      <p>
        Apps that sign in to another service keep their credentials in connections. Choose an app to manage its
        connections.
      </p>
      <LoadStatus of={apps} />
      {apps.data?.length === 0 && <Empty>No installed app needs a connection.</Empty>}
      <ul class="app-list">
        {apps.data?.map((app) => (
          <li key={app.key}>
            <a href={`/connections/${app.key}`}>
              <span class="app-dot" style={{ background: app.primaryColor }} aria-hidden="true" />
              {app.name}
            </a>
            <span class="muted"> {app.description}</span>
          </li>
        ))}
      </ul>
    </Page>
  );
};

export const AppConnections = ({ appKey }: { appKey: string }) => {
  const app = useLoad(() => api.get<App>(`/apps/${appKey}`).then((r) => r.data), [appKey]);
  const connections = useLoad(() => api.get<Connection[]>(`/apps/${appKey}/connections`).then((r) => r.data), [appKey]);
  const [adding, setAdding] = useState(false);
  const [reconnecting, setReconnecting] = useState<Connection | null>(null);
  const [notice, setNotice] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const act = async (action: () => Promise<unknown>) => {
    setErrors({});
    try {
      await action();
      connections.reload();
    } catch (error) {
      setErrors(errorsOf(error));
    }
  };
  if (app.error) return <LoadError errors={app.error} />;
  if (!app.data) return <Loading />;
  const current = app.data;
  return (
    <Page
      title={`${current.name} connections`}
      actions={
        <button type="button" class="primary" onClick={() => setAdding(true)}>
          Add connection
        </button>
      }
    >
      <p>
        <a href="/connections">← All apps</a>
      </p>
      <FormErrors errors={errors} />
      {notice && (
        <p class="alert" role="status">
          {notice}
        </p>
      )}
      {adding && (
        <ConnectionForm
          app={current}
          onCancel={() => setAdding(false)}
          onDone={() => {
            setAdding(false);
            connections.reload();
          }}
        />
      )}
      {reconnecting && (
        <ConnectionForm
          app={current}
          connection={reconnecting}
          onCancel={() => setReconnecting(null)}
          onDone={() => {
            setReconnecting(null);
            connections.reload();
          }}
        />
      )}
      {connections.data?.length === 0 && <Empty>No {current.name} connection yet.</Empty>}
      {connections.data && connections.data.length > 0 && (
        <Table columns={['Name', 'State', 'Added']}>
          {connections.data.map((connection) => (
            <tr key={connection.id}>
              <td>{connection.formattedData.screenName ?? connection.id}</td>
              <td>
                <Badge status={connection.verified ? 'verified' : 'unverified'} />
              </td>
              <td>{formatDate(connection.createdAt)}</td>
              <td class="row-actions">
                <button
                  type="button"
                  onClick={() =>
                    void act(async () => {
                      const checked = await api.post<Connection>(`/connections/${connection.id}/test`);
                      const name = connection.formattedData.screenName ?? 'The connection';
                      setNotice(checked.data.verified ? `${name} works.` : `${name} no longer works: reconnect it.`);
                    })
                  }
                >
                  Test
                </button>
                <button type="button" onClick={() => setReconnecting(connection)}>
                  Reconnect
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() => {
                    if (confirm('Delete this connection? Steps using it become incomplete.'))
                      void act(() => api.delete(`/connections/${connection.id}`));
                  }}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
};
