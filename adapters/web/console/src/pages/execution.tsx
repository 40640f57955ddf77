import { useCallback, useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api';
import type { Execution, ExecutionStep, StepCall } from '../types';
import { Badge, FormErrors, formatDate, LoadError, Loading, Page, useAction, useId, useLoad } from '../ui';
import { ExecutionTree } from './execution-tree';

type RetryOn = 'original' | 'current';

/** The version a run ran, and the one the flow runs now when that is another. */
const versionFact = ({ testRun, flowVersion, flow }: Execution) => {
  if (testRun) return 'The draft (a test run)';
  if (!flowVersion) return '–';
  const now = flow.publishedVersion;
  return now && now.id !== flowVersion.id
    ? `Version ${flowVersion.number} (the flow's published version is now ${now.number})`
    : `Version ${flowVersion.number}`;
};

export const ExecutionDetail = ({ executionId }: { executionId: string }) => {
  const { route } = useLocation();
  const execution = useLoad(() => api.get<Execution>(`/executions/${executionId}`).then((r) => r.data), [executionId]);
  // The calls its steps made on their way (an agent's model and tool calls), read beside it.
  const calls = useLoad(
    () => api.get<StepCall[]>(`/executions/${executionId}/calls`).then((r) => r.data),
    [executionId],
  );
  const reload = useCallback(() => {
    execution.reload();
    calls.reload();
  }, [execution.reload, calls.reload]);
  const retry = useAction();
  const rerun = useAction();
  const [retryOn, setRetryOn] = useState<RetryOn>('original');
  const retryOnId = useId('retry-on');
  // A run still going (or waiting on a delay) is followed until it finishes.
  const unfinished = execution.data?.status === 'running' || execution.data?.status === 'waiting';
  useEffect(() => {
    if (!unfinished) return;
    const timer = setInterval(reload, 2000);
    return () => clearInterval(timer);
  }, [unfinished, reload]);
  if (execution.error) return <LoadError errors={execution.error} retry={execution.reload} />;
  if (!execution.data) return <Loading label="Loading the execution…" />;
  const current = execution.data;
  // A run retries on the version it ran, unless the user picks the one the flow has published since.
  const ran = current.flowVersion;
  const published = current.flow.publishedVersion;
  const versionChoice = !current.testRun && ran && published && published.id !== ran.id ? { ran, published } : null;
  const finished = current.status === 'success' || current.status === 'failure';
  const rerunFrom = async (record: ExecutionStep) => {
    const name = record.step?.name ?? 'this step';
    const question = `Run this execution again from “${name}”? The steps before it keep their records and are not run again; this step and those after it run again.`;
    if (!confirm(question)) return;
    const answer = await rerun.run(() =>
      api.post<Execution>(`/executions/${current.id}/retry`, { fromStepId: record.stepId }),
    );
    if (answer) route(`/executions/${answer.data.id}`);
  };
  return (
    <Page
      title={`Execution of ${current.flow.name}`}
      actions={
        <>
          <Badge status={current.status} />
          {current.status === 'failure' && (
            <form
              class="inline"
              aria-label="Retry"
              onSubmit={async (event) => {
                event.preventDefault();
                const body = versionChoice ? { version: retryOn } : {};
                const answer = await retry.run(() => api.post<Execution>(`/executions/${current.id}/retry`, body));
                if (answer) route(`/executions/${answer.data.id}`);
              }}
            >
              {versionChoice && (
                <>
                  <label for={retryOnId}>Retry on</label>
                  <select id={retryOnId} value={retryOn} onChange={(e) => setRetryOn(e.currentTarget.value as RetryOn)}>
                    <option value="original">version {versionChoice.ran.number}, the one it ran</option>
                    <option value="current">
                      version {versionChoice.published.number},{' '}
                      {current.flow.active ? 'the live one' : 'the last published'}
                    </option>
                  </select>
                </>
              )}
              <button type="submit" class="primary" disabled={retry.busy}>
                Retry
              </button>
            </form>
          )}
          <button type="button" onClick={reload}>
            Refresh
          </button>
        </>
      }
    >
      <p>
        <a href="/executions">← All executions</a> · <a href={`/flows/${current.flowId}`}>Open the flow</a>
      </p>
      <FormErrors errors={retry.errors} />
      <FormErrors errors={rerun.errors} />
      <dl class="facts">
        <dt>Started</dt>
        <dd>{formatDate(current.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{formatDate(current.finishedAt)}</dd>
        <dt>Kind</dt>
        <dd>{current.testRun ? 'Test run' : 'Run'}</dd>
        <dt>Version</dt>
        <dd>{versionFact(current)}</dd>
        {current.parentExecutionId && (
          <>
            <dt>Called by</dt>
            <dd>
              <a href={`/executions/${current.parentExecutionId}`}>the run that called it</a>
            </dd>
          </>
        )}
        {current.retryOf && (
          <>
            <dt>Retry of</dt>
            <dd>
              <a href={`/executions/${current.retryOf}`}>the earlier execution</a>
            </dd>
          </>
        )}
      </dl>
      {current.steps?.length === 0 && <p class="empty">No step has run yet.</p>}
      {calls.error && <LoadError errors={calls.error} retry={calls.reload} />}
      <ExecutionTree
        execution={current}
        calls={calls.data ?? []}
        onDecided={reload}
        {...(finished && { onRerun: rerunFrom, rerunning: rerun.busy })}
      />
    </Page>
  );
};
