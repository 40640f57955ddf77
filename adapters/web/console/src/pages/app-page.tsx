import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, query } from '../api';
import { categoryLabel } from '../app-categories';
import { AppIcon } from '../app-picker';
import type { App, Flow, StepDefinition } from '../types';
import {
  Badge,
  Empty,
  formatDate,
  LoadError,
  Loading,
  LoadStatus,
  Page,
  Pagination,
  Table,
  Tabs,
  useLoad,
} from '../ui';
import { AppConnections } from './connections';

/** The sections of an app's page, each at its own address: `/app/:appKey`, `.../connections`, `.../flows`. */
export type AppTab = 'steps' | 'connections' | 'flows';

/** How each kind of trigger starts a flow, in a word and in a sentence. */
const TRIGGER_KINDS = {
  webhook: ['Webhook', 'Runs when a request arrives at the flow’s address.'],
  polling: ['Polling', 'Checks for new items at regular intervals.'],
  schedule: ['Schedule', 'Runs at the times it is set to.'],
  listener: ['Listener', 'Holds a subscription open (a queue, a topic, a mailbox) and runs with each message.'],
  started: ['Started by Conveyor', 'Runs when Conveyor starts it: a call from another flow, or a failed run.'],
} as const;

const connectionKind = (app: App) => {
  if (!app.supportsConnections) return 'None needed.';
  const kind =
    app.authKind === 'oauth2'
      ? `Sign in with ${app.name} (OAuth 2), in a window it opens.`
      : 'Credentials you enter (such as an API key, a password or a server address).';
  return app.connectionOptional ? `${kind} Optional: its steps run without one too.` : kind;
};

const StepList = ({ steps, kind }: { steps: StepDefinition[]; kind: 'trigger' | 'action' }) => (
  <ul class="step-definitions">
    {steps.map((step) => {
      const [type, meaning] = kind === 'trigger' ? TRIGGER_KINDS[step.type ?? 'started'] : [];
      return (
        <li key={step.key}>
          <div class="step-definition-header">
            <h3>{step.name}</h3>
            {type && (
              <span class="tag" title={meaning}>
                {type}
              </span>
            )}
          </div>
          <p>{step.description}</p>
          {step.arguments.length > 0 && (
            <p class="hint">
              Settings: {step.arguments.map((a) => `${a.label}${a.required ? ' (required)' : ''}`).join(', ')}
            </p>
          )}
        </li>
      );
    })}
  </ul>
);

/** What the kinds of the app's triggers mean, once each. */
const TriggerKinds = ({ triggers }: { triggers: StepDefinition[] }) => (
  <dl class="facts trigger-kinds">
    {[...new Set(triggers.map((trigger) => trigger.type ?? 'started'))].map((kind) => (
      <Fragment key={kind}>
        <dt>{TRIGGER_KINDS[kind][0]}</dt>
        <dd>{TRIGGER_KINDS[kind][1]}</dd>
      </Fragment>
    ))}
  </dl>
);

const AppSteps = ({ app }: { app: App }) => {
  const steps = useLoad(
    () =>
      Promise.all([
        api.get<StepDefinition[]>(`/apps/${app.key}/triggers`),
        api.get<StepDefinition[]>(`/apps/${app.key}/actions`),
      ]).then(([triggers, actions]) => ({ triggers: triggers.data, actions: actions.data })),
    [app.key],
  );
  return (
    <>
      <LoadStatus of={steps} />
      {steps.data && (
        <div class="grid-2 app-steps">
          <section aria-labelledby="app-triggers">
            <h2 id="app-triggers">Triggers ({steps.data.triggers.length})</h2>
            {steps.data.triggers.length === 0 ? (
              <p class="muted">{app.name} does not start flows; its actions are steps of them.</p>
            ) : (
              <>
                <StepList steps={steps.data.triggers} kind="trigger" />
                <TriggerKinds triggers={steps.data.triggers} />
              </>
            )}
          </section>
          <section aria-labelledby="app-actions">
            <h2 id="app-actions">Actions ({steps.data.actions.length})</h2>
            {steps.data.actions.length === 0 ? (
              <p class="muted">{app.name} has no actions; it starts flows.</p>
            ) : (
              <StepList steps={steps.data.actions} kind="action" />
            )}
          </section>
        </div>
      )}
    </>
  );
};

const AppFlows = ({ app }: { app: App }) => {
  const [page, setPage] = useState(1);
  const flows = useLoad(() => api.get<Flow[]>(`/apps/${app.key}/flows${query({ page })}`), [app.key, page]);
  return (
    <section aria-label={`Flows using ${app.name}`}>
      <LoadStatus of={flows} />
      {flows.data?.data.length === 0 && <Empty>No flow uses {app.name} yet.</Empty>}
      {flows.data && flows.data.data.length > 0 && (
        <>
          <Table columns={['Name', 'Status', 'Updated']} actions={false}>
            {flows.data.data.map((flow) => (
              <tr key={flow.id}>
                <td>
                  <a href={`/flows/${flow.id}`}>{flow.name}</a>
                </td>
                <td>
                  <Badge status={flow.status} />
                </td>
                <td>{formatDate(flow.updatedAt)}</td>
              </tr>
            ))}
          </Table>
          <Pagination page={page} totalPages={flows.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </section>
  );
};

/**
 * An app's page, as Automatisch's `/app/:appKey`: what it is (icon, description, categories, how it
 * connects), then its triggers and actions, its connections and the flows that use it.
 */
export const AppPage = ({ appKey, tab = 'steps' }: { appKey: string; tab?: AppTab }) => {
  const app = useLoad(() => api.get<App>(`/apps/${appKey}`).then((r) => r.data), [appKey]);
  if (app.error) return <LoadError errors={app.error} retry={app.reload} />;
  if (!app.data) return <Loading />;
  const current = app.data;
  const base = `/app/${current.key}`;
  const tabs: { name: AppTab; href: string; label: string }[] = [
    { name: 'steps', href: base, label: 'Triggers and actions' },
    ...(current.supportsConnections
      ? [{ name: 'connections' as const, href: `${base}/connections`, label: 'Connections' }]
      : []),
    { name: 'flows', href: `${base}/flows`, label: 'Flows' },
  ];
  return (
    <Page title={current.name}>
      <div class="app-summary">
        <AppIcon app={current} size={64} />
        <div>
          <p>{current.description}</p>
          <dl class="facts">
            <dt>Categories</dt>
            <dd>
              {current.categories.length === 0
                ? 'None'
                : current.categories.map((category) => (
                    <span class="chip chip-static" key={category}>
                      {categoryLabel(category)}
                    </span>
                  ))}
            </dd>
            <dt>Connection</dt>
            <dd>{connectionKind(current)}</dd>
            <dt>Key</dt>
            <dd>
              <code>{current.key}</code>
            </dd>
          </dl>
        </div>
      </div>
      <Tabs label={`About ${current.name}`} tabs={tabs} current={tab} />
      {tab === 'steps' && <AppSteps app={current} />}
      {tab === 'connections' &&
        (current.supportsConnections ? (
          <AppConnections app={current} />
        ) : (
          <Empty>{current.name} needs no connection.</Empty>
        ))}
      {tab === 'flows' && <AppFlows app={current} />}
    </Page>
  );
};
