import { useState } from 'preact/hooks';
import { api, errorsOf, type FieldErrors } from '../../api';
import { AppPicker, ChosenApp } from '../../app-picker';
import type { App, AppAuth } from '../../types';
import { CheckboxField, FormErrors, LoadError, Loading, LoadStatus, useAction, useId, useLoad } from '../../ui';
import { AdminPage } from './admin-page';

interface AppConfig {
  disabled: boolean;
  useOnlyPredefinedAuthClients: boolean;
}
interface OAuthClient {
  id: string;
  name: string;
  active: boolean;
}

const AppSettings = ({ app }: { app: App }) => {
  const config = useLoad(
    () =>
      api.get<AppConfig>(`/apps/${app.key}/config`).then(
        (r) => r.data,
        (e: { status?: number }) => {
          if (e.status === 404) return null;
          throw e;
        },
      ),
    [app.key],
  );
  const [values, setValues] = useState<AppConfig | null>(null);
  const [saved, setSaved] = useState(false);
  const { errors, busy, run } = useAction();
  if (config.loading) return <Loading />;
  if (config.error) return <LoadError errors={config.error} />;
  const current = values ?? config.data ?? { disabled: false, useOnlyPredefinedAuthClients: false };
  const set = (patch: Partial<AppConfig>) => {
    setValues({ ...current, ...patch });
    setSaved(false);
  };
  return (
    <form
      class="subcard"
      aria-label={`Settings of ${app.name}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const done = await run(() =>
          config.data
            ? api.patch(`/admin/apps/${app.key}/config`, current)
            : api.post(`/admin/apps/${app.key}/config`, current),
        );
        if (done) {
          setSaved(true);
          config.reload();
        }
      }}
    >
      <h3>Settings</h3>
      <FormErrors errors={errors} />
      <CheckboxField
        label="Disabled (no new connections)"
        checked={current.disabled}
        onValue={(checked) => set({ disabled: checked })}
      />
      {app.authKind === 'oauth2' && (
        <CheckboxField
          label="Users connect only through the OAuth clients below"
          checked={current.useOnlyPredefinedAuthClients}
          onValue={(checked) => set({ useOnlyPredefinedAuthClients: checked })}
        />
      )}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Save settings
        </button>
        {saved && <span role="status">Saved.</span>}
      </div>
    </form>
  );
};

const OAuthClients = ({ app }: { app: App }) => {
  const clients = useLoad(
    () => api.get<OAuthClient[]>(`/admin/apps/${app.key}/auth-clients`).then((r) => r.data),
    [app.key],
  );
  const auth = useLoad(() => api.get<AppAuth>(`/apps/${app.key}/auth`).then((r) => r.data), [app.key]);
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [rowErrors, setRowErrors] = useState<FieldErrors>({});
  const { errors, busy, run } = useAction();
  const formId = useId('client');
  return (
    <div class="subcard">
      <h3>OAuth clients</h3>
      <FormErrors errors={rowErrors} />
      {clients.error && <LoadError errors={clients.error} />}
      <ul>
        {clients.data?.map((client) => (
          <li key={client.id}>
            {client.name} — {client.active ? 'active' : 'inactive'}{' '}
            <button
              type="button"
              class="small"
              onClick={() =>
                api
                  .patch(`/admin/apps/${app.key}/auth-clients/${client.id}`, { active: !client.active })
                  .then(clients.reload, (e: unknown) => setRowErrors(errorsOf(e)))
              }
            >
              {client.active ? 'Deactivate' : 'Activate'}
              <span class="visually-hidden"> {client.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <form
        aria-label={`New OAuth client for ${app.name}`}
        onSubmit={async (e) => {
          e.preventDefault();
          const done = await run(() =>
            api.post(`/admin/apps/${app.key}/auth-clients`, { name, active: true, formattedAuthDefaults: values }),
          );
          if (done) {
            setName('');
            setValues({});
            clients.reload();
          }
        }}
      >
        <FormErrors errors={errors} />
        <div class="grid-3">
          <div class="field">
            <label for={`${formId}-name`}>Client name</label>
            <input id={`${formId}-name`} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
          </div>
          {auth.data?.fields.map((field) => (
            <div class="field" key={field.key}>
              <label for={`${formId}-${field.key}`}>{field.label}</label>
              <input
                id={`${formId}-${field.key}`}
                type={field.secret ? 'password' : 'text'}
                autoComplete="off"
                value={values[field.key] ?? ''}
                placeholder={field.placeholder}
                required={field.required}
                onInput={(e) => setValues({ ...values, [field.key]: e.currentTarget.value })}
              />
            </div>
          ))}
        </div>
        <button type="submit" disabled={busy}>
          Add OAuth client
        </button>
      </form>
    </div>
  );
};

export const AdminApps = () => {
  const apps = useLoad(() => api.get<App[]>('/apps').then((r) => r.data), []);
  const [selected, setSelected] = useState('');
  const app = apps.data?.find((a) => a.key === selected) ?? null;
  return (
    <AdminPage title="Apps">
      <LoadStatus of={apps} />
      {apps.data && !app && (
        <>
          <p>Choose an app to change its settings and, for apps that sign in with OAuth, its OAuth clients.</p>
          <AppPicker apps={apps.data} label="Apps" choose={{ pick: (chosen) => setSelected(chosen.key) }} />
        </>
      )}
      {app && (
        <section class="card" aria-label={app.name} key={app.key}>
          <ChosenApp app={app} change={{ label: 'Choose another app', onClick: () => setSelected('') }} />
          <p class="muted">{app.description}</p>
          <AppSettings app={app} />
          {app.authKind === 'oauth2' && <OAuthClients app={app} />}
        </section>
      )}
    </AdminPage>
  );
};
