import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, errorsOf, type FieldErrors, query, request } from '../api';
import type { Flow, Folder } from '../types';
import {
  Badge,
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
} from '../ui';
import { ifMatch, isDraftConflict } from './draft';
import { type TemplateChoice, TemplateGallery } from './template-gallery';

const download = (name: string, data: unknown) => {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${name.replace(/[^\w.-]+/g, '-') || 'flow'}.json`;
  link.click();
  URL.revokeObjectURL(url);
};

const FlowRow = ({ flow, folders, onChanged }: { flow: Flow; folders: Folder[]; onChanged: () => void }) => {
  const { route } = useLocation();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(flow.name);
  const [errors, setErrors] = useState<FieldErrors>({});
  const inputId = useId('rename');
  const folderId = useId('move');
  const act = async (action: () => Promise<unknown>) => {
    setErrors({});
    try {
      await action();
      onChanged();
    } catch (error) {
      setErrors(errorsOf(error));
      // The row showed an older draft: the list is read again, so that trying again goes through.
      if (isDraftConflict(error)) onChanged();
    }
  };
  /** A change of the flow's draft, based on the revision this list showed. */
  const change = (path: string, body: unknown) => request('PATCH', path, body, ifMatch(flow.draftRevision));
  const rename = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      await change(`/flows/${flow.id}`, { name });
      setRenaming(false);
    });
  };
  return (
    <tr>
      <td>
        {renaming ? (
          <form class="inline" onSubmit={rename}>
            <label class="visually-hidden" for={inputId}>
              New name of {flow.name}
            </label>
            <input id={inputId} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
            <button type="submit">Save</button>
            <button type="button" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <a href={`/flows/${flow.id}`}>{flow.name}</a>
        )}
        <FormErrors errors={errors} />
      </td>
      <td>
        <Badge status={flow.status} />
        {flow.active && flow.listener?.status === 'failing' && (
          <span class="tag tag-failing" title={flow.listener.lastError ?? undefined}>
            not listening
          </span>
        )}
        {flow.publishedVersion && flow.hasDraftChanges && (
          <span class="tag" title={`The flow runs version ${flow.publishedVersion.number}; its draft differs.`}>
            unpublished changes
          </span>
        )}
      </td>
      <td>{formatDate(flow.updatedAt)}</td>
      <td class="row-actions">
        <button
          type="button"
          onClick={() => void act(() => change(`/flows/${flow.id}/status`, { active: !flow.active }))}
        >
          {flow.active ? 'Unpublish' : 'Publish'}
        </button>
        {folders.length > 0 && (
          <>
            <label class="visually-hidden" for={folderId}>
              Folder of {flow.name}
            </label>
            <select
              id={folderId}
              value={flow.folderId ?? ''}
              onChange={(e) => {
                const target = e.currentTarget.value || null;
                void act(() => api.patch(`/flows/${flow.id}/folder`, { folderId: target }));
              }}
            >
              <option value="">No folder</option>
              {folders.map((folder) => (
                <option key={folder.id} value={folder.id}>
                  {folder.name}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="button" onClick={() => setRenaming(true)} aria-label={`Rename ${flow.name}`}>
          Rename
        </button>
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              const copy = await api.post<Flow>(`/flows/${flow.id}/duplicate`);
              route(`/flows/${copy.data.id}`);
            })
          }
        >
          Duplicate
        </button>
        <button
          type="button"
          onClick={() => void act(async () => download(flow.name, (await api.post(`/flows/${flow.id}/export`)).data))}
        >
          Export
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (confirm(`Delete the flow “${flow.name}”? This cannot be undone.`))
              void act(() => api.delete(`/flows/${flow.id}`));
          }}
        >
          Delete
        </button>
      </td>
    </tr>
  );
};

export const Flows = () => {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [status, setStatus] = useState('');
  const [folderId, setFolderId] = useState('');
  const [page, setPage] = useState(1);
  const [errors, setErrors] = useState<FieldErrors>({});
  const searchId = useId('search');
  const statusId = useId('status');
  const folderSelectId = useId('folder');
  const importId = useId('import');
  const folders = useLoad(() => api.get<Folder[]>('/folders').then((r) => r.data), []);
  const [gallery, setGallery] = useState(false);
  const [creating, setCreating] = useState(false);
  const flows = useLoad(
    () => api.get<Flow[]>(`/flows${query({ name, status, folderId, page, perPage: 10 })}`),
    [name, status, folderId, page],
  );

  /** A new flow, empty or from a template, filed in the folder shown, then opened in the editor. */
  const create = async (from?: TemplateChoice) => {
    setErrors({});
    setCreating(true);
    try {
      const created = await api.post<Flow>(`/flows${query({ ...from })}`);
      if (folderId && folderId !== 'null') await api.patch(`/flows/${created.data.id}/folder`, { folderId });
      setGallery(false);
      route(`/flows/${created.data.id}`);
    } catch (error) {
      setGallery(false);
      setErrors(errorsOf(error));
    } finally {
      setCreating(false);
    }
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setErrors({});
    try {
      const imported = await api.post<Flow>('/flows/import', JSON.parse(await file.text()));
      route(`/flows/${imported.data.id}`);
    } catch (error) {
      setErrors(
        error instanceof SyntaxError ? { general: ['The file is not a JSON export document.'] } : errorsOf(error),
      );
    }
  };
  const createFolder = async () => {
    const folderName = prompt('Name of the new folder');
    if (!folderName) return;
    try {
      const created = await api.post<Folder>('/folders', { name: folderName });
      folders.reload();
      setFolderId(created.data.id);
    } catch (error) {
      setErrors(errorsOf(error));
    }
  };

  return (
    <Page
      title="Flows"
      actions={
        <>
          <input
            id={importId}
            class="visually-hidden file-input"
            type="file"
            accept="application/json,.json"
            onChange={(e) => void importFile(e.currentTarget.files?.[0])}
          />
          <label class="button" for={importId}>
            Import
          </label>
          <button type="button" onClick={() => setGallery(true)}>
            Templates
          </button>
          <button type="button" class="primary" onClick={() => void create()}>
            Create flow
          </button>
        </>
      }
    >
      <FormErrors errors={errors} />
      {gallery && (
        <TemplateGallery busy={creating} onClose={() => setGallery(false)} onUse={(from) => void create(from)} />
      )}
      <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for={searchId}>Search by name</label>
          <input
            id={searchId}
            type="search"
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              setPage(1);
            }}
          />
        </div>
        <div class="field">
          <label for={statusId}>Status</label>
          <select
            id={statusId}
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value);
              setPage(1);
            }}
          >
            <option value="">Any</option>
            <option value="draft">Draft</option>
            <option value="published">Published</option>
          </select>
        </div>
        <div class="field">
          <label for={folderSelectId}>Folder</label>
          <select
            id={folderSelectId}
            value={folderId}
            onChange={(e) => {
              setFolderId(e.currentTarget.value);
              setPage(1);
            }}
          >
            <option value="">All flows</option>
            <option value="null">Uncategorized</option>
            {folders.data?.map((folder) => (
              <option key={folder.id} value={folder.id}>
                {folder.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => void createFolder()}>
          New folder
        </button>
        {folderId && folderId !== 'null' && (
          <button
            type="button"
            class="danger"
            onClick={() => {
              if (!confirm('Delete this folder? Its flows stay, uncategorized.')) return;
              api.delete(`/folders/${folderId}`).then(
                () => {
                  setFolderId('');
                  folders.reload();
                },
                (error: unknown) => setErrors(errorsOf(error)),
              );
            }}
          >
            Delete folder
          </button>
        )}
      </form>
      {flows.loading && !flows.data && <Loading />}
      {flows.error && <LoadError errors={flows.error} retry={flows.reload} />}
      {flows.data && flows.data.data.length === 0 && (
        <Empty>
          {name || status || folderId ? (
            <p>No flow matches these filters.</p>
          ) : (
            <div class="first-run">
              <p class="first-run-title">No flows yet.</p>
              <p>
                A flow starts with a trigger (a webhook call, a schedule, a form submission…) and then runs its actions.
                Start from a ready-made flow, or build one step by step.
              </p>
              <div class="buttons">
                <button type="button" class="primary" onClick={() => setGallery(true)}>
                  Start from a template
                </button>
                <button type="button" disabled={creating} onClick={() => void create()}>
                  Start from scratch
                </button>
              </div>
            </div>
          )}
        </Empty>
      )}
      {flows.data && flows.data.data.length > 0 && (
        <>
          <Table columns={['Name', 'Status', 'Updated']}>
            {flows.data.data.map((flow) => (
              <FlowRow key={flow.id} flow={flow} folders={folders.data ?? []} onChanged={flows.reload} />
            ))}
          </Table>
          <Pagination page={page} totalPages={flows.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </Page>
  );
};
