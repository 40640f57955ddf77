import { useState } from 'preact/hooks';
import { api } from '../../api';
import type { Timestamp } from '../../types';
import { CheckboxField, FormErrors, formatDate, InputField, LoadStatus, useAction, useLoad } from '../../ui';
import { AdminPage } from './admin-page';

interface Config {
  title: string | null;
  primaryMainColor: string | null;
  primaryDarkColor: string | null;
  primaryLightColor: string | null;
  enableTemplates: boolean;
  registrationEnabled: boolean;
}
interface License {
  id: string | null;
  name: string | null;
  expireAt: Timestamp | null;
  verified: boolean;
}

const ConfigForm = ({ config, onSaved }: { config: Config; onSaved: () => void }) => {
  const [values, setValues] = useState(config);
  const [saved, setSaved] = useState(false);
  const { errors, busy, run } = useAction();
  const set = (patch: Partial<Config>) => {
    setValues({ ...values, ...patch });
    setSaved(false);
  };
  const color = (value: string) => (value.trim() === '' ? null : value.trim());
  return (
    <form
      class="card"
      aria-label="Instance settings"
      onSubmit={async (e) => {
        e.preventDefault();
        const body = {
          title: values.title?.trim() ? values.title : null,
          primaryMainColor: values.primaryMainColor,
          primaryDarkColor: values.primaryDarkColor,
          primaryLightColor: values.primaryLightColor,
          enableTemplates: values.enableTemplates,
          registrationEnabled: values.registrationEnabled,
        };
        if (await run(() => api.patch('/admin/config', body))) {
          setSaved(true);
          onSaved();
        }
      }}
    >
      <h2>Instance settings</h2>
      <FormErrors errors={errors} fields={['title', 'primaryMainColor', 'primaryDarkColor', 'primaryLightColor']} />
      <InputField
        label="Title"
        name="title"
        value={values.title ?? ''}
        onValue={(v) => set({ title: v })}
        errors={errors}
      />
      <div class="grid-3">
        <InputField
          label="Main colour"
          name="primaryMainColor"
          value={values.primaryMainColor ?? ''}
          onValue={(v) => set({ primaryMainColor: color(v) })}
          errors={errors}
          placeholder="#2952cc"
        />
        <InputField
          label="Dark colour"
          name="primaryDarkColor"
          value={values.primaryDarkColor ?? ''}
          onValue={(v) => set({ primaryDarkColor: color(v) })}
          errors={errors}
        />
        <InputField
          label="Light colour"
          name="primaryLightColor"
          value={values.primaryLightColor ?? ''}
          onValue={(v) => set({ primaryLightColor: color(v) })}
          errors={errors}
        />
      </div>
      <CheckboxField
        label="Users can start flows from templates"
        checked={values.enableTemplates}
        onValue={(checked) => set({ enableTemplates: checked })}
      />
      <CheckboxField
        label="Anyone can register an account"
        checked={values.registrationEnabled}
        onValue={(checked) => set({ registrationEnabled: checked })}
      />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Save settings
        </button>
        {saved && <span role="status">Saved.</span>}
      </div>
    </form>
  );
};

export const AdminSettings = () => {
  const config = useLoad(() => api.get<Config>('/service/config').then((r) => r.data), []);
  const license = useLoad(() => api.get<License>('/service/license').then((r) => r.data), []);
  return (
    <AdminPage title="Settings and licence">
      <section class="card" aria-labelledby="licence-title">
        <h2 id="licence-title">Enterprise licence</h2>
        <LoadStatus of={license} />
        {license.data &&
          (license.data.verified ? (
            <dl class="facts">
              <dt>Licensee</dt>
              <dd>{license.data.name}</dd>
              <dt>Expires</dt>
              <dd>{formatDate(license.data.expireAt)}</dd>
            </dl>
          ) : (
            <p>
              No valid licence: roles, single sign-on, app settings, templates, API tokens and these settings need one.
              Set <code>LICENSE_KEY</code> and restart (see docs/licensing.md).
            </p>
          ))}
      </section>
      <LoadStatus of={config} />
      {config.data && <ConfigForm config={config.data} onSaved={config.reload} />}
    </AdminPage>
  );
};
