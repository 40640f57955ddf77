import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, query } from '../api';
import type { Execution } from '../types';
import { Badge, Empty, formatDate, LoadError, Loading, Page, Pagination, Table, useId, useLoad } from '../ui';

/** `datetime-local` gives local wall time; the API wants an instant, in milliseconds as it gives them. */
const instant = (local: string) => (local ? String(new Date(local).getTime()) : '');

export const Executions = () => {
  const location = useLocation();
  const flowId = location.query.flowId ?? '';
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const ids = { name: useId('name'), status: useId('status'), from: useId('from'), to: useId('to') };
  const executions = useLoad(
    () =>
      api.get<Execution[]>(
        `/executions${query({ name, status, flowId, startDateTime: instant(from), endDateTime: instant(to), page, perPage: 20 })}`,
      ),
    [name, status, flowId, from, to, page],
  );
  const filter = (set: (value: string) => void) => (event: Event) => {
    set((event.currentTarget as HTMLInputElement).value);
    setPage(1);
  };
  return (
    <Page
      title="Executions"
      actions={
        <button type="button" onClick={executions.reload}>
          Refresh
        </button>
      }
    >
      <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for={ids.name}>Flow name</label>
          <input id={ids.name} type="search" value={name} onInput={filter(setName)} />
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
          <Table columns={['Flow', 'Status', 'Started', 'Finished']} actions={false}>
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
                <td>{formatDate(execution.createdAt)}</td>
                <td>{formatDate(execution.finishedAt)}</td>
              </tr>
            ))}
          </Table>
          <Pagination page={page} totalPages={executions.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </Page>
  );
};
