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
import { AgentCreate, AgentPage, Agents } from './pages/agents';
import { AppPage } from './pages/app-page';
import { Connections } from './pages/connections';
import { ExecutionDetail } from './pages/execution';
import { Executions } from './pages/executions';
import { FlowDatastore } from './pages/flow-datastore';
import { FlowEditor } from './pages/flow-editor';
import { Flows } from './pages/flows';
import { FormEditor } from './pages/form-editor';
import { Forms } from './pages/forms';
import { Installation } from './pages/installation';
import { McpServerPage } from './pages/mcp-server';
import { McpServers } from './pages/mcp-servers';
import { OAuthCallback } from './pages/oauth-callback';
import { AcceptInvitation, ForgotPassword, ResetPassword } from './pages/password';
import { Profile } from './pages/profile';
import { Register } from './pages/register';
import { SignIn, SignInCallback } from './pages/sign-in';
import { SessionContext } from './session';
import { Toasts } from './toast';
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

/** A page that only sends the browser on: to `to`, or to what `to` makes of the route's parameters. */
const redirectTo =
  <Params extends object>(to: string | ((params: Params) => string)) =>
  (params: Params) => {
    const { route } = useLocation();
    const target = typeof to === 'string' ? to : to(params);
    useEffect(() => route(target, true), [route, target]);
    return null;
  };
const Home = redirectTo('/flows');
const AdminHome = redirectTo('/admin/users');
/** Where an app's connections were before apps had pages. */
const OldAppConnections = redirectTo(
  ({ appKey }: { appKey: string }) => `/app/${encodeURIComponent(appKey)}/connections`,
);

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
          <Route path="/flows/:flowId/datastore" component={FlowDatastore} />
          <Route path="/executions" component={Executions} />
          <Route path="/executions/:executionId" component={ExecutionDetail} />
          <Route path="/form-entities" component={Forms} />
          <Route path="/form-entities/create" component={FormEditor} />
          <Route path="/form-entities/:formId" component={FormEditor} />
          <Route path="/agents" component={Agents} />
          <Route path="/agents/create" component={AgentCreate} />
          <Route path="/agents/:agentId" component={AgentPage} />
          <Route path="/agents/:agentId/tools" component={AgentPage} tab="tools" />
          <Route path="/agents/:agentId/settings" component={AgentPage} tab="settings" />
          <Route path="/agents/:agentId/executions" component={AgentPage} tab="executions" />
          <Route path="/agents/:agentId/executions/:executionId" component={AgentPage} tab="executions" />
          <Route path="/mcp-servers" component={McpServers} />
          <Route path="/mcp-servers/:mcpServerId" component={McpServerPage} />
          <Route path="/mcp-servers/:mcpServerId/tools" component={McpServerPage} tab="tools" />
          <Route path="/mcp-servers/:mcpServerId/connect" component={McpServerPage} tab="connect" />
          <Route path="/mcp-servers/:mcpServerId/executions" component={McpServerPage} tab="executions" />
          <Route path="/connections" component={Connections} />
          <Route path="/connections/:appKey" component={OldAppConnections} />
          <Route path="/app/:appKey" component={AppPage} />
          <Route path="/app/:appKey/connections" component={AppPage} tab="connections" />
          <Route path="/app/:appKey/flows" component={AppPage} tab="flows" />
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
      {/* Testing (issue 25): publishing and other feedback, over every page. */}
      <Toasts />
    </SessionContext.Provider>
  );
};

export const App = () => (
  <LocationProvider>
    <Shell />
  </LocationProvider>
);
