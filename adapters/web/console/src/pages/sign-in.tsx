import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, session } from '../api';
import { FormErrors, InputField, useAction, useLoad } from '../ui';

interface SamlProvider {
  id: string;
  name: string;
  loginUrl: string;
}

type SignedIn = (next?: string) => void;

export const SignIn = ({
  onSignedIn,
  registration,
  singleSignOn,
}: {
  onSignedIn: SignedIn;
  registration?: boolean;
  /** The instance has an enterprise licence: SAML providers may be listed (the list is enterprise). */
  singleSignOn?: boolean;
}) => {
  const { query } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, run } = useAction();
  const providers = useLoad(
    async () =>
      singleSignOn
        ? api.get<SamlProvider[]>('/saml-auth-providers').then(
            (r) => r.data,
            () => [],
          )
        : [],
    [singleSignOn],
  );
  useEffect(() => {
    document.title = 'Sign in · Conveyor';
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await run(() => session.open(email, password))) onSignedIn(query.next);
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

/**
 * Where SAML sign-in sends the browser back. The server has opened the cookie session already; the
 * `?token=` it adds is for Automatisch's web client, so it leaves the address (and history) at once.
 */
export const SignInCallback = ({ onSignedIn }: { onSignedIn: SignedIn }) => {
  const { route } = useLocation();
  useEffect(() => {
    history.replaceState(null, '', '/login/callback');
    session.isOpen().then(
      (open) => (open ? onSignedIn() : route('/login?error=saml', true)),
      () => route('/login?error=saml', true),
    );
  }, []);
  return <p class="muted">Signing you in…</p>;
};
