import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api';
import { FormErrors, InputField, useAction, useLoad } from '../ui';

interface SamlProvider {
  id: string;
  name: string;
  loginUrl: string;
}

type SignedIn = (token: string, next?: string) => void;

export const SignIn = ({ onSignedIn, registration }: { onSignedIn: SignedIn; registration?: boolean }) => {
  const { query } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, run } = useAction();
  // Without an enterprise licence the list answers 403: then there is simply no SSO button.
  const providers = useLoad(
    () =>
      api.get<SamlProvider[]>('/saml-auth-providers').then(
        (r) => r.data,
        () => [],
      ),
    [],
  );
  useEffect(() => {
    document.title = 'Sign in · Conveyor';
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await run(() => api.post<{ token: string }>('/access-tokens', { email, password }));
    if (answer) onSignedIn(answer.data.token, query.next);
  };
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Conveyor</h1>
      {query.error === 'saml' && (
        <div class="alert alert-error" role="alert">
          Single sign-on did not succeed. Try again or sign in with your password.
        </div>
      )}
      <FormErrors errors={errors} fields={['email', 'password']} />
      <InputField
        label="E-mail"
        name="email"
        type="email"
        value={email}
        onValue={setEmail}
        errors={errors}
        required
        autoComplete="username"
      />
      <InputField
        label="Password"
        name="password"
        type="password"
        value={password}
        onValue={setPassword}
        errors={errors}
        required
        autoComplete="current-password"
      />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p>
        <a href="/forgot-password">Forgot your password?</a>
        {registration && (
          <>
            {' · '}
            <a href="/register">Create an account</a>
          </>
        )}
      </p>
      {providers.data && providers.data.length > 0 && (
        <div class="sso">
          <p class="muted">Or sign in with</p>
          {providers.data.map((provider) => (
            <a key={provider.id} class="button" href={provider.loginUrl}>
              {provider.name}
            </a>
          ))}
        </div>
      )}
    </form>
  );
};

/** Where SAML sign-in sends the browser back with `?token=`. */
export const SignInCallback = ({ onSignedIn }: { onSignedIn: SignedIn }) => {
  const { query, route } = useLocation();
  useEffect(() => {
    if (query.token) onSignedIn(query.token);
    else route('/login?error=saml', true);
  }, [query.token, onSignedIn, route]);
  return <p class="muted">Signing you in…</p>;
};
