import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { Flow, ListenerState, StepDefinition } from '../types';
import { formatDate } from '../ui';

/** How often an open flow page reads its listener's state again. */
const REFRESH_MS = 5_000;

const headline = (state: ListenerState) => {
  switch (state.status) {
    case 'starting':
      return 'Connecting: a worker is opening the subscription.';
    case 'listening':
      return 'Listening: each message starts a run.';
    case 'failing':
      return `Not listening: the subscription failed ${state.failures === 1 ? 'once' : `${state.failures} times in a row`}. It is tried again with growing pauses, up to a minute apart.`;
  }
};

/**
 * What a published flow with a listener trigger (a queue, a topic, a mailbox) is doing: whether its
 * subscription is open and, if it failed, why. Read again every few seconds while the page is open,
 * so that a broken connection shows without a reload.
 */
export const ListenerStatus = ({ flow }: { flow: Flow }) => {
  const [state, setState] = useState<ListenerState | null>(flow.listener ?? null);
  useEffect(() => setState(flow.listener ?? null), [flow.listener]);
  const trigger = flow.steps.find((s) => s.type === 'trigger');
  const [listens, setListens] = useState(false);
  useEffect(() => {
    if (!flow.active || !trigger?.appKey) return;
    api.get<StepDefinition[]>(`/apps/${trigger.appKey}/triggers`).then(
      (answer) => setListens(answer.data.some((t) => t.key === trigger.key && t.type === 'listener')),
      () => {},
    );
  }, [flow.active, trigger?.appKey, trigger?.key]);
  // Just published (a new version), the subscription may not be asked for yet: read until it is.
  const shown = flow.active && (state !== null || listens);
  useEffect(() => {
    if (!shown) return;
    const timer = setInterval(() => {
      api.get<Flow>(`/flows/${flow.id}`).then(
        (answer) => setState(answer.data.listener ?? null),
        () => {},
      );
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [flow.id, shown]);
  if (!shown) return null;
  if (state === null)
    return (
      <div class="alert listener-status listener-starting" role="status" aria-live="polite">
        <p>
          <strong>Trigger:</strong> Connecting: a worker is opening the subscription.
        </p>
      </div>
    );
  return (
    <div
      class={`alert listener-status listener-${state.status}${state.status === 'failing' ? ' alert-error' : ''}`}
      role="status"
      aria-live="polite"
    >
      <p>
        <strong>Trigger:</strong> {headline(state)}
      </p>
      {state.lastError && (
        <p>
          {state.status === 'failing' ? 'Reason' : 'Last failure'} ({formatDate(state.lastErrorAt)}):{' '}
          <code>{state.lastError}</code>
        </p>
      )}
    </div>
  );
};
