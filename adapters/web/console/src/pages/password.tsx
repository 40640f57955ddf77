import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api';
import { FormErrors, InputField, NewPasswordField, useAction } from '../ui';

export const ForgotPassword = () => {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { errors, busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await run(() => api.post('/users/forgot-password', { email }))) setSent(true);
  };
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot your password?</h1>
      {sent ? (
        <p role="status">If an account uses this address, an e-mail with a reset link is on its way.</p>
      ) : (
        <>
          <FormErrors errors={errors} fields={['email']} />
          <InputField
            label="E-mail"
            name="email"
            type="email"
            value={email}
            onValue={setEmail}
            errors={errors}
            required
          />
          <button type="submit" class="primary" disabled={busy}>
            Send reset link
          </button>
        </>
      )}
      <p>
        <a href="/login">Back to sign-in</a>
      </p>
    </form>
  );
};

/** Reset (`/reset-password?token=`) and invitation (`/accept-invitation?token=`) both set a password. */
const SetPassword = ({ title, path, done }: { title: string; path: string; done: string }) => {
  const { query } = useLocation();
  const [password, setPassword] = useState('');
  const [finished, setFinished] = useState(false);
  const { errors, busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await run(() => api.post(path, { token: query.token ?? '', password }))) setFinished(true);
  };
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="password-title">
      <h1 id="password-title">{title}</h1>
      {finished ? (
        <p role="status">
          {done} <a href="/login">Sign in</a>
        </p>
      ) : (
        <>
          {!query.token && (
            <p class="alert alert-error">This link has no token: open the link from the e-mail again.</p>
          )}
          <FormErrors errors={errors} fields={['password']} />
          <NewPasswordField label="New password" value={password} onValue={setPassword} errors={errors} />
          <button type="submit" class="primary" disabled={busy}>
            Set password
          </button>
        </>
      )}
    </form>
  );
};

export const ResetPassword = () => (
  <SetPassword title="Choose a new password" path="/users/reset-password" done="Your password is changed." />
);

export const AcceptInvitation = () => (
  <SetPassword title="Accept your invitation" path="/users/invitation" done="Your account is ready." />
);
