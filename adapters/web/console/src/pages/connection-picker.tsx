import { useState } from 'preact/hooks';
import { api } from '../api';
import type { App, AppAuth, Connection } from '../types';
import { FieldError, FormErrors, useAction, useId, useLoad } from '../ui';
import { authorizeInPopup, openConsentWindow } from './oauth';

interface OAuthClient {
  id: string;
  name: string;
}

/**
 * Adds a connection, or reconnects an existing one (`connection` given): credential fields saved
 * and verified, or for OAuth2 apps the provider's consent in a popup (with the user's own client
 * settings or an administrator's OAuth client).
 */
export const ConnectionForm = ({
  app,
  connection,
  onDone,
  onCancel,
}: {
  app: App;
  connection?: Connection;
  onDone: (c: Connection) => void;
  onCancel: () => void;
}) => {
  const auth = useLoad(() => api.get<AppAuth>(`/apps/${app.key}/auth`).then((r) => r.data), [app.key]);
  // Administrators' OAuth clients need the enterprise licence; without one the list is empty.
  const clients = useLoad(
    () =>
      app.authKind === 'oauth2'
        ? api.get<OAuthClient[]>(`/apps/${app.key}/auth-clients`).then(
            (r) => r.data,
            () => [],
          )
        : Promise.resolve([] as OAuthClient[]),
    [app.key],
  );
  const [values, setValues] = useState<Record<string, string>>({});
  const [clientId, setClientId] = useState('');
  const { errors, busy, run } = useAction();
  const formId = useId('connection');
  if (auth.loading || clients.loading) return <p class="muted">Loading the connection form…</p>;
  const oauth = auth.data?.kind === 'oauth2';
  const usingClient = oauth && clientId !== '';
  const fields = auth.data?.fields ?? [];

  const submit = async (event: Event) => {
    event.preventDefault();
    const popup = oauth ? openConsentWindow() : null;
    const done = await run(async () => {
      let id = connection?.id;
      if (!id) {
        const body = usingClient ? { appAuthClientId: clientId } : { formattedData: values };
        id = (await api.post<Connection>(`/apps/${app.key}/connections`, body)).data.id;
      } else if (oauth) {
        await api.post(`/connections/${id}/reset`);
        if (!usingClient && Object.keys(values).length)
          await api.patch(`/connections/${id}`, { formattedData: values });
      } else {
        await api.patch(`/connections/${id}`, { formattedData: values });
      }
      if (oauth) {
        await authorizeInPopup(id, popup);
        return (
          (await api.get<Connection[]>(`/apps/${app.key}/connections`)).data.find((c) => c.id === id) ??
          ({ id } as Connection)
        );
      }
      return (await api.post<Connection>(`/connections/${id}/verify`)).data;
    });
    if (done) onDone(done);
    else popup?.close();
  };

  const verb = connection ? 'Reconnect' : 'Connect';
  return (
    <form class="subcard" onSubmit={submit} aria-label={`${verb} ${app.name}`}>
      <h3>
        {verb} {app.name}
      </h3>
      <FormErrors errors={errors} fields={fields.map((f) => f.key)} />
      {oauth && clients.data && clients.data.length > 0 && (
        <div class="field">
          <label for={`${formId}-client`}>OAuth client</label>
          <select id={`${formId}-client`} value={clientId} onChange={(e) => setClientId(e.currentTarget.value)}>
            <option value="">My own client settings</option>
            {clients.data.map((client) => (
              <option key={client.id} value={client.id}>
                {client.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {!usingClient &&
        fields.map((field) => (
          <div class="field" key={field.key}>
            <label for={`${formId}-${field.key}`}>
              {field.label}
              {field.required ? ' (required)' : ''}
            </label>
            <input
              id={`${formId}-${field.key}`}
              type={field.secret ? 'password' : 'text'}
              value={values[field.key] ?? ''}
              placeholder={field.placeholder}
              autoComplete="off"
              onInput={(e) => setValues({ ...values, [field.key]: e.currentTarget.value })}
              required={field.required}
            />
            {field.description && <p class="hint">{field.description}</p>}
            <FieldError messages={errors[field.key] ?? errors[`formattedData.${field.key}`]} />
          </div>
        ))}
      {oauth && <p class="hint">A window opens at {app.name} to grant access; come back here when it closes.</p>}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Connecting…' : oauth ? `Sign in with ${app.name}` : 'Save and verify'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
};

export const ConnectionPicker = ({
  app,
  value,
  onValue,
  errors,
}: {
  app: App;
  value: string | null;
  onValue: (id: string | null) => void;
  errors?: string[];
}) => {
  const connections = useLoad(
    () => api.get<Connection[]>(`/apps/${app.key}/connections`).then((r) => r.data),
    [app.key],
  );
  const [adding, setAdding] = useState(false);
  const id = useId('connection');
  return (
    <div class="field">
      <label for={id}>Connection ({app.connectionOptional ? 'optional' : 'required'})</label>
      <div class="inline">
        <select id={id} value={value ?? ''} onChange={(e) => onValue(e.currentTarget.value || null)}>
          <option value="">{connections.loading ? 'Loading…' : 'Choose a connection…'}</option>
          {connections.data?.map((connection) => (
            <option key={connection.id} value={connection.id}>
              {connection.formattedData.screenName ?? connection.id}
              {connection.verified ? '' : ' (not verified)'}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => setAdding(true)}>
          Add connection
        </button>
      </div>
      <FieldError messages={errors} />
      {adding && (
        <ConnectionForm
          app={app}
          onCancel={() => setAdding(false)}
          onDone={(created) => {
            setAdding(false);
            connections.reload();
            onValue(created.id);
          }}
        />
      )}
    </div>
  );
};
