import { useState } from 'preact/hooks';
import { api, session } from '../api';
import { FormErrors, InputField, NewPasswordField, useAction } from '../ui';

/** Self-registration, offered when an administrator switched it on; signs the new user in. */
export const Register = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const signedIn = await run(async () => {
      await api.post('/users', { fullName, email, password });
      return session.open(email, password);
    });
    if (signedIn) onSignedIn();
  };
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="register-title">
      <h1 id="register-title">Create your account</h1>
      <FormErrors errors={errors} fields={['fullName', 'email', 'password']} />
      <InputField label="Full name" name="fullName" value={fullName} onValue={setFullName} errors={errors} required />
      <InputField label="E-mail" name="email" type="email" value={email} onValue={setEmail} errors={errors} required />
      <NewPasswordField value={password} onValue={setPassword} errors={errors} />
      <button type="submit" class="primary" disabled={busy}>
        Create account
      </button>
      <p>
        <a href="/login">I have an account</a>
      </p>
    </form>
  );
};
