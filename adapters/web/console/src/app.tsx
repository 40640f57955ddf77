import { useCallback, useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { api, onUnauthorized, session } from './api';
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
import { FormEditor } from './pages/form-editor';
import { Forms } from './pages/forms';
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
  // Null until the server says whether the browser's session cookie is still good.
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  useEffect(() => {
    session.isOpen().then(setSignedIn, () => setSignedIn(false));
  }, []);

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
    if (info?.installationCompleted && signedIn === false && !isPublic) {
      const back = location.url === '/' ? '' : `?next=${encodeURIComponent(location.url)}`;
      location.route(`/login${back}`, true);
    }
  }, [info, signedIn, isPublic, location]);

  if (infoError) return <LoadError errors={infoError} retry={loadInfo} />;
  if (!info) return <Loading label="Connecting to Conveyor…" />;

  const onSignedIn = (next?: string) => {
    setSignedIn(true);
    location.route(next?.startsWith('/') && !next.startsWith('//') ? next : '/flows', true);
  };
  // The installation page signs the new administrator in; should that fail, the sign-in page asks.
  const onInstalled = (signedInNow: boolean) => {
    loadInfo();
    if (signedInNow) onSignedIn();
    else setSignedIn(false);
  };
  if (!info.installationCompleted) return <Installation onInstalled={onInstalled} />;
  if (signedIn === null && !isPublic) return <Loading label="Connecting to Conveyor…" />;

  if (isPublic || !signedIn) {
    return (
      <main class="public">
        <Router>
          <Route
            path="/login"
            component={SignIn}
            onSignedIn={onSignedIn}
            registration={info.registrationEnabled}
            singleSignOn={info.isEnterprise}
          />
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
    await session.close().catch(() => undefined);
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
          <Route path="/form-entities" component={Forms} />
          <Route path="/form-entities/create" component={FormEditor} />
          <Route path="/form-entities/:formId" component={FormEditor} />
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
