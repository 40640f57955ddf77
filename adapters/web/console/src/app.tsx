import { useCallback, useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, onUnauthorized, token } from './api';
import { Layout } from './layout';
import { AdminApiTokens } from './pages/admin/api-tokens';
import { AdminApps } from './pages/admin/apps';
import { AdminRoles } from './pages/admin/roles';
import { AdminSaml } from './pages/admin/saml';
import { AdminSettings } from './pages/admin/settings';
import { AdminTemplates } from './pages/admin/templates';
import { AdminUsers } from './pages/admin/users';
import { AppConnections, Connections } from './pages/connections';
import { ExecutionDetail } from './pages/execution';
import { Executions } from './pages/executions';
import { FlowEditor } from './pages/flow-editor';
import { Flows } from './pages/flows';
import { Installation } from './pages/installation';
import { OAuthCallback } from './pages/oauth-callback';
import { AcceptInvitation, ForgotPassword, ResetPassword } from './pages/password';
import { Profile } from './pages/profile';
import { Register } from './pages/register';
import { SignIn, SignInCallback } from './pages/sign-in';
import { SessionContext } from './session';
import type { ServiceInfo, User } from './types';
import { LoadError, Loading } from './ui';

const PUBLIC_PATHS = [
  '/login',
  '/register',
  '/login/callback',
  '/forgot-password',
  '/reset-password',
  '/accept-invitation',
];

const NotFound = () => (
  <section class="page">
    <h1>Page not found</h1>
    <p>
      <a href="/flows">Back to your flows</a>
    </p>
  </section>
);

const redirectTo = (to: string) => () => {
  const { route } = useLocation();
  useEffect(() => route(to, true), [route]);
  return null;
};
const Home = redirectTo('/flows');
const AdminHome = redirectTo('/admin/users');

/** Decides between installation, the public pages and the signed-in console. */
const Shell = () => {
  const location = useLocation();
  const [info, setInfo] = useState<ServiceInfo | null>(null);
  const [infoError, setInfoError] = useState<Record<string, string[]> | null>(null);
  const [user, setUser] = useState<User | null>(null);
  const [signedIn, setSignedIn] = useState(() => token.get() !== null);

  const loadInfo = useCallback(() => {
    setInfoError(null);
    api.get<ServiceInfo>('/service/info').then(
      (r) => setInfo(r.data),
      (e: { errors?: Record<string, string[]> }) => setInfoError(e.errors ?? { general: ['Cannot reach the server.'] }),
    );
  }, []);
  useEffect(loadInfo, []);

  useEffect(
    () =>
      onUnauthorized(() => {
        setSignedIn(false);
        setUser(null);
      }),
    [],
  );

  const loadUser = useCallback(() => {
    api.get<User>('/users/me').then(
      (r) => setUser(r.data),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (signedIn) loadUser();
  }, [signedIn, loadUser]);

  const isPublic = PUBLIC_PATHS.includes(location.path);
  useEffect(() => {
    if (info?.installationCompleted && !signedIn && !isPublic) {
      const back = location.url === '/' ? '' : `?next=${encodeURIComponent(location.url)}`;
      location.route(`/login${back}`, true);
    }
  }, [info, signedIn, isPublic, location]);

  if (infoError) return <LoadError errors={infoError} retry={loadInfo} />;
  if (!info) return <Loading label="Connecting to Conveyor…" />;
  if (!info.installationCompleted) return <Installation onInstalled={loadInfo} />;

  const onSignedIn = (value: string, next?: string) => {
    token.set(value);
    setSignedIn(true);
    location.route(next?.startsWith('/') && !next.startsWith('//') ? next : '/flows', true);
  };

  if (isPublic || !signedIn) {
    return (
      <main class="public">
        <Router>
          <Route path="/login" component={SignIn} onSignedIn={onSignedIn} registration={info.registrationEnabled} />
          <Route path="/register" component={Register} onSignedIn={onSignedIn} />
          <Route path="/login/callback" component={SignInCallback} onSignedIn={onSignedIn} />
          <Route path="/forgot-password" component={ForgotPassword} />
          <Route path="/reset-password" component={ResetPassword} />
          <Route path="/accept-invitation" component={AcceptInvitation} />
          <Route default component={Loading} />
        </Router>
      </main>
    );
  }

  if (!user) return <Loading label="Loading your account…" />;

  const signOut = async () => {
    const current = token.get();
    if (current) await api.delete(`/access-tokens/${encodeURIComponent(current)}`).catch(() => undefined);
    token.clear();
    setUser(null);
    setSignedIn(false);
    location.route('/login', true);
  };

  return (
    <SessionContext.Provider value={{ user, info, signOut, refreshUser: loadUser }}>
      <Layout>
        <Router>
          <Route path="/" component={Home} />
          <Route path="/flows" component={Flows} />
          <Route path="/flows/:flowId" component={FlowEditor} />
          <Route path="/executions" component={Executions} />
          <Route path="/executions/:executionId" component={ExecutionDetail} />
          <Route path="/connections" component={Connections} />
          <Route path="/connections/:appKey" component={AppConnections} />
          <Route path="/app/:appKey/connections/callback" component={OAuthCallback} />
          <Route path="/profile" component={Profile} />
          <Route path="/admin" component={AdminHome} />
          <Route path="/admin/users" component={AdminUsers} />
          <Route path="/admin/roles" component={AdminRoles} />
          <Route path="/admin/saml" component={AdminSaml} />
          <Route path="/admin/apps" component={AdminApps} />
          <Route path="/admin/templates" component={AdminTemplates} />
          <Route path="/admin/api-tokens" component={AdminApiTokens} />
          <Route path="/admin/settings" component={AdminSettings} />
          <Route default component={NotFound} />
        </Router>
      </Layout>
    </SessionContext.Provider>
  );
};

export const App = () => (
  <LocationProvider>
    <Shell />
  </LocationProvider>
);
