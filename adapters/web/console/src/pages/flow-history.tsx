import { useState } from 'preact/hooks';
import { api, query } from '../api';
import { useSession } from '../session';
import { showToast } from '../toast';
import type { Flow, FlowVersion, StepChange, User, VersionComparison } from '../types';
import { Empty, formatDate, LoadStatus, Pagination, Table, useId, useLoad } from '../ui';

const DRAFT = 'draft';

/** What a compared field is called for people; a setting is named by its key. */
const FIELD_NAMES: Record<string, string> = {
  type: 'type',
  appKey: 'app',
  key: 'event',
  name: 'name',
  position: 'position',
  connectionId: 'connection',
  continueOnFailure: 'continue on failure',
};
const fieldName = (field: string) =>
  field.startsWith('parameters.') ? `setting “${field.slice('parameters.'.length)}”` : (FIELD_NAMES[field] ?? field);

const sideName = (side: VersionComparison['from']) => (side.number === null ? 'the draft' : `version ${side.number}`);

/** Who published a version: "you", else their name when an administrator may look it up, else their id. */
const usePublishers = (versions: FlowVersion[]) => {
  const { user } = useSession();
  const others = [
    ...new Set(versions.flatMap((v) => (v.publishedBy && v.publishedBy !== user.id ? [v.publishedBy] : []))),
  ];
  const names = useLoad(
    async () =>
      new Map(
        user.role?.isAdmin
          ? await Promise.all(
              others.map((id) =>
                api.get<User>(`/admin/users/${id}`).then(
                  (r) => [id, r.data.fullName] as const,
                  () => [id, null] as const,
                ),
              ),
            )
          : [],
      ),
    [others.join(','), user.role?.isAdmin],
  );
  return (publishedBy: string | null) => {
    if (publishedBy === null) return <span class="muted">a removed user</span>;
    if (publishedBy === user.id) return 'you';
    const name = names.data?.get(publishedBy);
    return name ?? <span title={publishedBy}>user {publishedBy.slice(0, 8)}</span>;
  };
};

const StepChanges = ({ title, changes }: { title: string; changes: StepChange[] }) =>
  changes.length ? (
    <>
      <h3>{title}</h3>
      <ul>
        {changes.map((change) => (
          <li key={change.stepId}>
            <strong>{change.label}</strong>
            {change.fields.length > 0 && `: ${change.fields.map(fieldName).join(', ')}`}
          </li>
        ))}
      </ul>
    </>
  ) : null;

/** What differs between two versions of the flow, or a version and the draft. */
const Comparison = ({
  flowId,
  versions,
  from,
  to,
  draftRevision,
  onSides,
}: {
  flowId: string;
  versions: FlowVersion[];
  from: string;
  to: string;
  draftRevision: number | null;
  onSides: (from: string, to: string) => void;
}) => {
  const ids = { from: useId('compare-from'), to: useId('compare-to') };
  // The draft changes under the comparison as the user edits: it is asked again.
  const compared = useLoad(
    () => api.get<VersionComparison>(`/flows/${flowId}/versions/compare${query({ from, to })}`).then((r) => r.data),
    [flowId, from, to, from === DRAFT || to === DRAFT ? draftRevision : null],
  );
  const options = [
    <option key={DRAFT} value={DRAFT}>
      The draft
    </option>,
    ...versions.map((version) => (
      <option key={version.id} value={version.id}>
        Version {version.number}
      </option>
    )),
  ];
  const result = compared.data;
  const changes = result?.changes;
  const none = changes && !changes.name && !changes.added.length && !changes.removed.length && !changes.changed.length;
  return (
    <section class="comparison" aria-label="Comparison">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for={ids.from}>Compare</label>
          <select id={ids.from} value={from} onChange={(e) => onSides(e.currentTarget.value, to)}>
            {options}
          </select>
        </div>
        <div class="field">
          <label for={ids.to}>with</label>
          <select id={ids.to} value={to} onChange={(e) => onSides(from, e.currentTarget.value)}>
            {options}
          </select>
        </div>
      </form>
      <LoadStatus of={compared} />
      {result && changes && (
        <div aria-live="polite">
          <p>
            From <strong>{sideName(result.from)}</strong> to <strong>{sideName(result.to)}</strong>:
          </p>
          {none && <p class="muted">No differences.</p>}
          {changes.name && (
            <p>
              Name: “{changes.name.from}” → “{changes.name.to}”
            </p>
          )}
          <StepChanges title="Added steps" changes={changes.added} />
          <StepChanges title="Removed steps" changes={changes.removed} />
          <StepChanges title="Changed steps" changes={changes.changed} />
        </div>
      )}
    </section>
  );
};

/**
 * The flow's published versions, newest first: who published each, when and why; compare any two
 * (or one with the draft), and restore one as the draft. Restoring is the editor's change to make.
 */
export const FlowHistory = ({
  flow,
  draftRevision,
  busy,
  onRestore,
  onClose,
}: {
  flow: Flow;
  draftRevision: number | null;
  busy: boolean;
  /** Resolves whether the version was restored. */
  onRestore: (version: FlowVersion) => Promise<boolean>;
  onClose: () => void;
}) => {
  const headingId = useId('history');
  const [page, setPage] = useState(1);
  const [sides, setSides] = useState<{ from: string; to: string } | null>(null);
  const history = useLoad(
    () => api.get<FlowVersion[]>(`/flows/${flow.id}/versions${query({ page, perPage: 10 })}`),
    [flow.id, page, flow.publishedVersion?.id],
  );
  const versions = history.data?.data ?? [];
  const publisher = usePublishers(versions);
  const liveId = flow.publishedVersion?.id;
  return (
    <section class="card history" aria-labelledby={headingId}>
      <header class="step-header">
        <h2 id={headingId}>Version history</h2>
        <button type="button" onClick={onClose}>
          Close history
        </button>
      </header>
      {!history.data && <LoadStatus of={history} />}
      {history.data && versions.length === 0 && (
        <Empty>
          <p>No version yet: publishing the flow makes its version 1.</p>
        </Empty>
      )}
      {versions.length > 0 && (
        <>
          <Table columns={['Version', 'Message', 'Published', 'By']}>
            {versions.map((version) => (
              <tr key={version.id} data-version={version.number}>
                <td>
                  Version {version.number}
                  {version.id === liveId && <span class="tag">{flow.active ? 'live' : 'last published'}</span>}
                </td>
                <td>{version.message ?? <span class="muted">No message</span>}</td>
                <td>{formatDate(version.createdAt)}</td>
                <td>{publisher(version.publishedBy)}</td>
                <td class="row-actions">
                  <button
                    type="button"
                    aria-label={`Compare version ${version.number}`}
                    onClick={() => setSides({ from: version.id, to: DRAFT })}
                  >
                    Compare
                  </button>
                  <button
                    type="button"
                    aria-label={`Restore version ${version.number}`}
                    disabled={busy}
                    onClick={() => {
                      if (
                        confirm(
                          `Make version ${version.number} the draft? The draft's steps are replaced by that version's; what runs stays as it is until you publish.`,
                        )
                      )
                        // The editor says what a restore made of the draft; a refusal is said here.
                        void onRestore(version).then(
                          (restored) =>
                            restored ||
                            showToast(`Version ${version.number} was not restored: see why on the page.`, 'error'),
                        );
                    }}
                  >
                    Restore
                  </button>
                </td>
              </tr>
            ))}
          </Table>
          <Pagination
            page={page}
            totalPages={history.data?.meta.totalPages ?? null}
            onPage={(next) => {
              // The comparison's choices are this page's versions.
              setSides(null);
              setPage(next);
            }}
          />
        </>
      )}
      {sides && (
        <Comparison
          flowId={flow.id}
          versions={versions}
          from={sides.from}
          to={sides.to}
          draftRevision={draftRevision}
          onSides={(from, to) => setSides({ from, to })}
        />
      )}
    </section>
  );
};
