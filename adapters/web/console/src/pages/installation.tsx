import { useState } from 'preact/hooks';
import { api, session } from '../api';
import { FormErrors, InputField, NewPasswordField, useAction } from '../ui';

/** The first start: create the administrator (POST /installation/users) and sign them in. */
export const Installation = ({ onInstalled }: { onInstalled: (signedIn: boolean) => void }) => {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await run(() => api.post('/installation/users', { fullName, email, password }));
    if (!done) return;
    const signedIn = await session.open(email, password).then(
      () => true,
      () => false,
    );
    onInstalled(signedIn);
  };
  return (
    <main class="public">
      <form class="card narrow" onSubmit={submit} aria-labelledby="install-title">
        <h1 id="install-title">Welcome to Conveyor</h1>
        <p>Create the administrator account of this installation.</p>
        <FormErrors errors={errors} fields={['fullName', 'email', 'password']} />
        <InputField
          label="Full name"
          name="fullName"
          value={fullName}
          onValue={setFullName}
          errors={errors}
          required
          autoComplete="name"
        />
        <InputField
          label="E-mail"
          name="email"
          type="email"
          value={email}
          onValue={setEmail}
          errors={errors}
          required
          autoComplete="email"
        />
        <NewPasswordField value={password} onValue={setPassword} errors={errors} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create administrator'}
        </button>
      </form>
    </main>
  );
};
