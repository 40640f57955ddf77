import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, query } from '../api';
import type { Execution, ExecutionStep } from '../types';
import { Badge, Empty, formatDate, LoadError, Loading, Page, Pagination, Table, useId, useLoad } from '../ui';
import { formatDuration, payloadOf, previewOf } from './run-summary';

/** `datetime-local` gives local wall time; the API wants an instant, in milliseconds as it gives them. */
const instant = (local: string) => (local ? String(new Date(local).getTime()) : '');

/** How often the list is asked again while auto-refresh is on and the page is in view. */
const REFRESH_MS = 5000;

/** Whether the browser shows the page (not a hidden tab or a minimized window). */
const useVisible = () => {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible');
  useEffect(() => {
    const changed = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', changed);
    return () => document.removeEventListener('visibilitychange', changed);
  }, []);
  return visible;
};

/**
 * Each run's trigger record (its first record in run order), asked once per run: a run's trigger
 * data never changes, so a refresh asks only for the runs it has not seen.
 */
const useTriggerData = (executions: readonly Execution[] | undefined) => {
  const known = useRef(new Map<string, unknown>());
  const [, setVersion] = useState(0);
  useEffect(() => {
    const missing = (executions ?? []).filter((e) => !known.current.has(e.id));
    for (const execution of missing) {
      known.current.set(execution.id, undefined);
      api
        .get<ExecutionStep[]>(`/executions/${execution.id}/execution-steps${query({ perPage: 1 })}`)
        .then(({ data }) => {
          known.current.set(execution.id, data[0]?.dataOut);
          setVersion((v) => v + 1);
        })
        .catch(() => known.current.delete(execution.id));
    }
  }, [executions]);
  return (executionId: string) => known.current.get(executionId);
};

/** The first record's payload, shortened; the whole of its output on hover and folded underneath. */
const TriggerPreview = ({ value }: { value: unknown }) => {
  if (value === undefined) return <span class="muted">–</span>;
  const full = JSON.stringify(value, null, 2);
  const preview = previewOf(payloadOf(value), 60);
  return (
    <details class="trigger-preview">
      <summary title={full}>
        <code>{preview}</code>
      </summary>
      <pre class="json">{full}</pre>
    </details>
  );
};

export const Executions = () => {
  const location = useLocation();
  const flowId = location.query.flowId ?? '';
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [version, setVersion] = useState('');
  const [page, setPage] = useState(1);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const visible = useVisible();
  const ids = {
    name: useId('name'),
    status: useId('status'),
    from: useId('from'),
    to: useId('to'),
    search: useId('search'),
    version: useId('version'),
  };
  const executions = useLoad(
    () =>
      api.get<Execution[]>(
        `/executions${query({
          name,
          status,
          flowId,
          startDateTime: instant(from),
          endDateTime: instant(to),
          q: search.trim(),
          flowVersion: version,
          page,
          perPage: 20,
        })}`,
      ),
    [name, status, flowId, from, to, search, version, page],
  );
  const { reload } = executions;
  // New runs appear as they start and running ones move on; the filters and the page stay as they are.
  useEffect(() => {
    if (!autoRefresh || !visible) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [autoRefresh, visible, reload]);
  const triggerData = useTriggerData(executions.data?.data);
  const now = Date.now();
  const filter = (set: (value: string) => void) => (event: Event) => {
    set((event.currentTarget as HTMLInputElement).value);
    setPage(1);
  };
  return (
    <Page
      title="Executions"
      actions={
        <>
          <label class="auto-refresh">
            <input
              type="checkbox"
              checked={autoRefresh}
              onChange={(e) => setAutoRefresh((e.currentTarget as HTMLInputElement).checked)}
            />{' '}
            Auto-refresh
          </label>
          <button type="button" onClick={executions.reload}>
            Refresh
          </button>
        </>
      }
    >
      <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for={ids.name}>Flow name</label>
          <input id={ids.name} type="search" value={name} onInput={filter(setName)} />
        </div>
        <div class="field">
          <label for={ids.search}>Search in data</label>
          <input
            id={ids.search}
            type="search"
            maxLength={100}
            placeholder="Text in any step's input or output"
            value={search}
            onInput={filter(setSearch)}
          />
        </div>
        <div class="field">
          <label for={ids.status}>Status</label>
          <select id={ids.status} value={status} onChange={filter(setStatus)}>
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
            <option value="running">Running</option>
            <option value="waiting">Waiting</option>
          </select>
        </div>
        <div class="field">
          <label for={ids.from}>From</label>
          <input id={ids.from} type="datetime-local" value={from} onInput={filter(setFrom)} />
        </div>
        <div class="field">
          <label for={ids.to}>Until</label>
          <input id={ids.to} type="datetime-local" value={to} onInput={filter(setTo)} />
        </div>
        {flowId && (
          <div class="field">
            <label for={ids.version}>Version</label>
            <input
              id={ids.version}
              type="number"
              min={1}
              inputMode="numeric"
              placeholder="Any"
              value={version}
              onInput={filter(setVersion)}
            />
          </div>
        )}
        {flowId && (
          <p>
            Showing one flow only. <a href="/executions">Show all flows</a>
          </p>
        )}
      </form>
      {executions.loading && !executions.data && <Loading />}
      {executions.error && <LoadError errors={executions.error} retry={executions.reload} />}
      {executions.data && executions.data.data.length === 0 && (
        <Empty>
          <p>
            No executions here yet. Published flows record one each time their trigger fires; tests record test runs.
          </p>
        </Empty>
      )}
      {executions.data && executions.data.data.length > 0 && (
        <>
          <Table columns={['Flow', 'Status', 'Trigger data', 'Started', 'Duration']} actions={false}>
            {executions.data.data.map((execution) => (
              <tr key={execution.id}>
                <td>
                  <a href={`/executions/${execution.id}`}>{execution.flow.name}</a>
                  {execution.testRun && <span class="tag">test</span>}
                  {execution.flowVersion && (
                    <span class="tag" title={`Ran version ${execution.flowVersion.number} of the flow`}>
                      v{execution.flowVersion.number}
                    </span>
                  )}
                </td>
                <td>
                  <Badge status={execution.status} />
                </td>
                <td class="trigger-cell">
                  <TriggerPreview value={triggerData(execution.id)} />
                </td>
                <td>{formatDate(execution.createdAt)}</td>
                <td title={execution.finishedAt ? `Finished ${formatDate(execution.finishedAt)}` : 'Not finished yet'}>
                  {formatDuration(execution.createdAt, execution.finishedAt, now)}
                  {!execution.finishedAt && <span class="muted"> so far</span>}
                </td>
              </tr>
            ))}
          </Table>
          <Pagination page={page} totalPages={executions.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </Page>
  );
};
