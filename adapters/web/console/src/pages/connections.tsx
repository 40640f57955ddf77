import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../api';
import { AppPicker } from '../app-picker';
import type { App, Connection } from '../types';
import { Badge, Empty, FormErrors, formatDate, LoadError, LoadStatus, Page, Table, useLoad } from '../ui';
import { ConnectionForm } from './connection-picker';

export const Connections = () => {
  const apps = useLoad(() => api.get<App[]>('/apps').then((r) => r.data.filter((a) => a.supportsConnections)), []);
  return (
    <Page title="Connections">
      <p>
        Apps that sign in to another service keep their credentials in connections. Choose an app to see its connections
        and add one.
      </p>
      <LoadStatus of={apps} />
      {apps.data?.length === 0 && <Empty>No installed app needs a connection.</Empty>}
      {apps.data && apps.data.length > 0 && (
        <AppPicker
          apps={apps.data}
          label="Apps with connections"
          choose={{ href: (app) => `/app/${app.key}/connections` }}
        />
      )}
    </Page>
  );
};

/** An app's connections (its page's Connections tab): add, test, reconnect, delete. */
export const AppConnections = ({ app }: { app: App }) => {
  const connections = useLoad(
    () => api.get<Connection[]>(`/apps/${app.key}/connections`).then((r) => r.data),
    [app.key],
  );
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
  return (
    <section aria-label={`${app.name} connections`}>
      <div class="buttons">
        <button type="button" class="primary" onClick={() => setAdding(true)}>
          Add connection
        </button>
      </div>
      {connections.error && <LoadError errors={connections.error} retry={connections.reload} />}
      <FormErrors errors={errors} />
      {notice && (
        <p class="alert" role="status">
          {notice}
        </p>
      )}
      {adding && (
        <ConnectionForm
          app={app}
          onCancel={() => setAdding(false)}
          onDone={() => {
            setAdding(false);
            connections.reload();
          }}
        />
      )}
      {reconnecting && (
        <ConnectionForm
          app={app}
          connection={reconnecting}
          onCancel={() => setReconnecting(null)}
          onDone={() => {
            setReconnecting(null);
            connections.reload();
          }}
        />
      )}
      {connections.data?.length === 0 && <Empty>No {app.name} connection yet.</Empty>}
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
    </section>
  );
};
