import { useState } from 'preact/hooks';
import { api } from '../api';
import { useSession } from '../session';
import type { Timestamp } from '../types';
import { FormErrors, formatDate, InputField, NewPasswordField, Page, useAction, useLoad } from '../ui';

interface PlanAndUsage {
  plan: { id: string; name: string; limit: number | null };
  usage: { task: number; periodStart: Timestamp; periodEnd: Timestamp };
}

export const Profile = () => {
  const { user, refreshUser, signOut } = useSession();
  const removal = useAction();
  const [fullName, setFullName] = useState(user.fullName);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [saved, setSaved] = useState('');
  const details = useAction();
  const secret = useAction();
  const usage = useLoad(() => api.get<PlanAndUsage>(`/users/${user.id}/plan-and-usage`).then((r) => r.data), [user.id]);

  return (
    <Page title="Your profile">
      {saved && (
        <p class="alert alert-success" role="status">
          {saved}
        </p>
      )}
      <div class="grid-2">
        <form
          class="card"
          aria-label="Your details"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await details.run(() => api.patch(`/users/${user.id}`, { fullName, email }))) {
              setSaved('Your details are saved.');
              refreshUser();
            }
          }}
        >
          <h2>Details</h2>
          <FormErrors errors={details.errors} fields={['fullName', 'email']} />
          <InputField
            label="Full name"
            name="fullName"
            value={fullName}
            onValue={setFullName}
            errors={details.errors}
            required
          />
          <InputField
            label="E-mail"
            name="email"
            type="email"
            value={email}
            onValue={setEmail}
            errors={details.errors}
            required
          />
          <button type="submit" class="primary" disabled={details.busy}>
            Save details
          </button>
        </form>
        <form
          class="card"
          aria-label="Change password"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await secret.run(() => api.patch(`/users/${user.id}/password`, { currentPassword, password }))) {
              setSaved('Your password is changed.');
              setCurrentPassword('');
              setPassword('');
            }
          }}
        >
          <h2>Password</h2>
          <FormErrors errors={secret.errors} fields={['currentPassword', 'password']} />
          <InputField
            label="Current password"
            name="currentPassword"
            type="password"
            value={currentPassword}
            onValue={setCurrentPassword}
            errors={secret.errors}
            required
            autoComplete="current-password"
          />
          <NewPasswordField label="New password" value={password} onValue={setPassword} errors={secret.errors} />
          <button type="submit" class="primary" disabled={secret.busy}>
            Change password
          </button>
        </form>
      </div>
      <section class="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Plan and usage</h2>
        {usage.data ? (
          <dl class="facts">
            <dt>Plan</dt>
            <dd>{usage.data.plan.name}</dd>
            <dt>Tasks this period</dt>
            <dd>
              {usage.data.usage.task}
              {usage.data.plan.limit === null ? ' (no limit)' : ` of ${usage.data.plan.limit}`}
            </dd>
            <dt>Period</dt>
            <dd>
              {formatDate(usage.data.usage.periodStart)} – {formatDate(usage.data.usage.periodEnd)}
            </dd>
          </dl>
        ) : (
          <p class="muted">{usage.error ? 'Plan and usage are not available.' : 'Loading…'}</p>
        )}
        <p>
          Role: <strong>{user.role?.name ?? '–'}</strong>
        </p>
      </section>
      <section class="card" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete your account</h2>
        <p>Your flows, connections and executions are removed, and you are signed out everywhere.</p>
        <FormErrors errors={removal.errors} />
        <button
          type="button"
          class="danger"
          disabled={removal.busy}
          onClick={async () => {
            if (!confirm('Delete your account and everything in it? This cannot be undone.')) return;
            if (await removal.run(() => api.delete(`/users/${user.id}`))) await signOut();
          }}
        >
          Delete my account
        </button>
      </section>
    </Page>
  );
};
