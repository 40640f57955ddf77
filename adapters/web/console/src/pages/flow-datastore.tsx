import { useState } from 'preact/hooks';
import { api, query } from '../api';
import type { Flow, Timestamp } from '../types';
import {
  Empty,
  FormErrors,
  formatDate,
  LoadError,
  Loading,
  Page,
  Pagination,
  Table,
  useId,
  useLoad,
  useRemoval,
} from '../ui';
import { previewOf } from './run-summary';

/** A value the datastore app keeps for a flow (`GET /flows/:flowId/datastore`). */
interface DatastoreEntry {
  key: string;
  value: unknown;
  updatedAt: Timestamp;
}

const PER_PAGE = 20;

/** The keys and values a flow's Datastore steps stored: searched, paged, shown as JSON, deleted. */
export const FlowDatastore = ({ flowId }: { flowId: string }) => {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const searchId = useId('datastore-search');
  const flow = useLoad(() => api.get<Flow>(`/flows/${flowId}`).then((r) => r.data), [flowId]);
  const entries = useLoad(
    () =>
      api.get<DatastoreEntry[]>(`/flows/${flowId}/datastore${query({ q: search.trim(), page, perPage: PER_PAGE })}`),
    [flowId, search, page],
  );
  const removal = useRemoval(entries.reload);
  const name = flow.data?.name ?? 'the flow';
  return (
    <Page title={`Datastore of ${name}`}>
      <p>
        <a href={`/flows/${flowId}`}>← Back to the flow</a> ·{' '}
        <a href={`/executions?flowId=${flowId}`}>Its executions</a>
      </p>
      <p class="hint">
        The values this flow's <strong>Datastore</strong> steps keep between runs (Set value), by key. A deleted key
        reads as empty (null) in the next run.
      </p>
      {flow.error && <LoadError errors={flow.error} retry={flow.reload} />}
      <form class="filters" aria-label="Search the datastore" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for={searchId}>Search keys and values</label>
          <input
            id={searchId}
            type="search"
            maxLength={100}
            value={search}
            onInput={(e) => {
              setSearch((e.currentTarget as HTMLInputElement).value);
              setPage(1);
            }}
          />
        </div>
      </form>
      <FormErrors errors={removal.errors} />
      {entries.loading && !entries.data && <Loading />}
      {entries.error && <LoadError errors={entries.error} retry={entries.reload} />}
      {entries.data && entries.data.data.length === 0 && (
        <Empty>
          <p>
            {search.trim()
              ? 'No key or value holds this text.'
              : 'Nothing stored yet: a Datastore step (Set value) of a run of this flow stores its values here.'}
          </p>
        </Empty>
      )}
      {entries.data && entries.data.data.length > 0 && (
        <>
          <Table columns={['Key', 'Value', 'Updated']}>
            {entries.data.data.map((entry) => (
              <tr key={entry.key} data-key={entry.key}>
                <td>
                  <code class="datastore-key">{entry.key}</code>
                </td>
                <td class="datastore-value">
                  <details>
                    <summary title={JSON.stringify(entry.value, null, 2)}>
                      <code>{previewOf(entry.value, 60)}</code>
                    </summary>
                    <pre class="json" data-label={`Value of ${entry.key}`}>
                      {JSON.stringify(entry.value, null, 2)}
                    </pre>
                  </details>
                </td>
                <td>{formatDate(entry.updatedAt)}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Delete ${entry.key}`}
                    onClick={() =>
                      removal.remove(
                        `Delete the key “${entry.key}”? The flow's next runs read it as empty.`,
                        `/flows/${flowId}/datastore/${encodeURIComponent(entry.key)}`,
                      )
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </Table>
          <Pagination page={page} totalPages={entries.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </Page>
  );
};
