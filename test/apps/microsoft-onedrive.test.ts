import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { microsoftOnedrive } from '../../adapters/apps/microsoft-onedrive/index.js';
import { createMemoryStore, type Store } from '../../adapters/apps/sdk/index.js';
import { type FakeRequest, reply } from '../support/fake-vendor.js';
import {
  describeMicrosoftConnection,
  type FakeGraph,
  graphError,
  runRateLimited,
  startFakeGraph,
} from './support/microsoft-common-fake.js';

const GRAPH = 'https://graph.microsoft.com/v1.0';
/** Times around the test's start (the triggers compare creation times with when watching began). */
const NOW = Date.now();
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const later = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

/** The drive's changes after the link `T0` (two pages), then none after `T1`. */
const changes = () => [
  {
    id: 'old-file',
    name: 'Old.docx',
    file: {},
    createdDateTime: ago(600),
    lastModifiedDateTime: later(1),
    parentReference: { id: 'docs' },
  },
  {
    id: 'new-file',
    name: 'New.pdf',
    file: {},
    createdDateTime: later(2),
    lastModifiedDateTime: later(2),
    parentReference: { id: 'docs' },
  },
  { id: 'root', root: {}, folder: {}, createdDateTime: ago(9000) },
  {
    id: 'new-folder',
    name: 'Q3',
    folder: { childCount: 0 },
    createdDateTime: later(3),
    lastModifiedDateTime: later(3),
    parentReference: { id: 'root' },
  },
  {
    id: 'other-file',
    name: 'Elsewhere.txt',
    file: {},
    createdDateTime: later(4),
    lastModifiedDateTime: later(4),
    parentReference: { id: 'misc' },
  },
  { id: 'gone', deleted: { state: 'deleted' }, parentReference: { id: 'docs' } },
];

const delta = (req: FakeRequest) => {
  const token = req.query.token;
  const link = (t: string) => `${GRAPH}/me/drive/root/delta?token=${t}`;
  if (token === 'latest') return { value: [], '@odata.deltaLink': link('T0') };
  if (token === 'T0' && req.query.page !== '2') {
    return { value: changes().slice(0, 3), '@odata.nextLink': `${link('T0')}&page=2` };
  }
  if (token === 'T0') return { value: changes().slice(3), '@odata.deltaLink': link('T1') };
  if (token === 'T1') return { value: [], '@odata.deltaLink': link('T1') };
  return graphError(410, 'resyncRequired', 'Resync required. Replace any local items with the server version.');
};

const CHILDREN: Record<string, unknown[]> = {
  root: [
    { id: 'docs', name: 'Documents', folder: { childCount: 2 } },
    { id: 'readme', name: 'README.md', file: {} },
    { id: 'photos', name: 'Photos', folder: { childCount: 0 } },
  ],
  docs: [
    { id: 'invoices', name: 'Invoices', folder: { childCount: 1 } },
    { id: 'cv', name: 'CV.pdf', file: {} },
  ],
  invoices: [{ id: '2024', name: '2024', folder: { childCount: 0 } }],
};

const children = (id: string) => (req: FakeRequest) => {
  const all = CHILDREN[id] ?? [];
  // One entry a page: every folder's list comes in several.
  const start = Number(req.query.$skiptoken ?? 0);
  const next = `${GRAPH}${req.path}?$select=id,name,folder&$top=200&$skiptoken=${start + 1}`;
  return { value: all.slice(start, start + 1), ...(start + 1 < all.length && { '@odata.nextLink': next }) };
};

let graph: FakeGraph;

beforeAll(async () => {
  graph = await startFakeGraph({
    'GET /me/drive/root/delta': delta,
    'GET /me/drive/root/children': children('root'),
    'GET /me/drive/items/:id/children': (req) => children(req.params.id ?? '')(req),
    'POST /me/drive/root/children': (req) =>
      reply(201, { id: 'made', webUrl: 'https://onedrive.test/made', ...(req.body as object) }),
    'POST /me/drive/items/:id/children': (req) =>
      req.params.id === 'docs'
        ? reply(201, { id: 'made-in-docs', ...(req.body as object) })
        : graphError(404, 'itemNotFound', 'The resource could not be found.'),
    'PUT /me/drive/items/:folder/:file/content': (req) =>
      reply(201, {
        id: 'uploaded',
        path: req.path,
        size: req.rawBody.length,
        type: req.headers['content-type'],
        query: req.query,
      }),
    'POST /drives/:drive/items/:id/createLink': (req) => ({
      id: 'perm-1',
      roles: ['read'],
      link: {
        type: (req.body as { type: string }).type,
        scope: (req.body as { scope: string }).scope,
        webUrl: `https://1drv.ms/u/${req.params.id}`,
      },
    }),
  });
});
afterAll(() => graph.close());

describeMicrosoftConnection(() => ({
  app: microsoftOnedrive,
  graph,
  scopes: ['Files.ReadWrite.All', 'Sites.Read.All'],
  refreshedBy: { kind: 'trigger', key: 'newFile', parameters: {}, route: 'GET /me/drive/root/delta' },
}));

const poll = (key: string, store: Store, parameters: Readonly<Record<string, unknown>> = {}) =>
  runAppTrigger(microsoftOnedrive, key, { ...graph.call(parameters), store });

describe('microsoft-onedrive: delta triggers', () => {
  it('newFile: nothing on the first poll (the drive as it is), then the files created since, newest first', async () => {
    const store = createMemoryStore();
    expect(await poll('newFile', store)).toEqual([]);
    const items = await poll('newFile', store);
    expect(items.map((item) => item.id)).toEqual(['other-file', 'new-file']);
    expect(items[1]?.data).toMatchObject({ name: 'New.pdf' });
    // The poll after reads from the link the poll before last ended at: the same changes again
    // (the engine knows their ids), then from the newest link on.
    expect((await poll('newFile', store)).map((item) => item.id)).toEqual(['other-file', 'new-file']);
    expect(await poll('newFile', store)).toEqual([]);
    const tokens = graph.vendor
      .calls('GET /me/drive/root/delta')
      .slice(-6)
      .map((request) => request.query.token);
    expect(tokens).toEqual(['latest', 'T0', 'T0', 'T0', 'T0', 'T1']);
  });

  it('newFile: only the chosen folder', async () => {
    const store = createMemoryStore();
    await poll('newFile', store, { folderId: 'docs' });
    expect((await poll('newFile', store, { folderId: 'docs' })).map((item) => item.id)).toEqual(['new-file']);
  });

  it('updatedFile: every file changed, each version once (id and modification time)', async () => {
    const store = createMemoryStore();
    await poll('updatedFile', store);
    const items = await poll('updatedFile', store);
    expect(items.map((item) => item.id)).toEqual([
      `other-file@${later(4)}`,
      `new-file@${later(2)}`,
      `old-file@${later(1)}`,
    ]);
  });

  it('newFolder: the folders created since, never the root', async () => {
    const store = createMemoryStore();
    await poll('newFolder', store);
    expect((await poll('newFolder', store)).map((item) => item.id)).toEqual(['new-folder']);
  });

  it('starts watching again from now when Graph no longer knows the link (410)', async () => {
    const store = createMemoryStore();
    await store.set('delta:newFile', { latest: `${GRAPH}/me/drive/root/delta?token=expired`, since: ago(5) });
    expect(await poll('newFile', store)).toEqual([]);
    expect(await store.get('delta:newFile')).toMatchObject({ latest: `${GRAPH}/me/drive/root/delta?token=T0` });
  });
});

describe('microsoft-onedrive: actions', () => {
  it('createFolder makes a folder at the top, or in a folder, renaming on a clash by default', async () => {
    expect(await runAppAction(microsoftOnedrive, 'createFolder', graph.call({ name: 'Reports' }))).toMatchObject({
      id: 'made',
    });
    expect(graph.vendor.calls('POST /me/drive/root/children').at(-1)?.body).toEqual({
      name: 'Reports',
      folder: {},
      '@microsoft.graph.conflictBehavior': 'rename',
    });
    expect(
      await runAppAction(
        microsoftOnedrive,
        'createFolder',
        graph.call({ folderId: 'docs', name: 'Q3', conflictBehavior: 'fail' }),
      ),
    ).toMatchObject({ id: 'made-in-docs', '@microsoft.graph.conflictBehavior': 'fail' });
    await expect(
      runAppAction(microsoftOnedrive, 'createFolder', graph.call({ folderId: 'nope', name: 'x' })),
    ).rejects.toThrow('The resource could not be found.');
    await expect(runAppAction(microsoftOnedrive, 'createFolder', graph.call({ name: 'a/b' }))).rejects.toMatchObject({
      fields: { name: ['must not contain " * : < > ? / \\ |.'] },
    });
  });

  it('uploadFile puts the text at folder:/name:/content', async () => {
    const output = await runAppAction(
      microsoftOnedrive,
      'uploadFile',
      graph.call({ folderId: 'docs', fileName: 'notes #1.txt', content: 'héllo' }),
    );
    expect(output).toEqual({
      id: 'uploaded',
      path: '/me/drive/items/docs:/notes%20%231.txt:/content',
      size: 5,
      type: 'text/plain; charset=utf-8',
      query: { '@microsoft.graph.conflictBehavior': 'rename' },
    });
  });

  it('createSharingLink answers the permission with its link', async () => {
    const output = await runAppAction(
      microsoftOnedrive,
      'createSharingLink',
      graph.call({ driveId: 'b!lib', itemId: 'f1', type: 'edit', scope: 'organization' }),
    );
    expect(output).toMatchObject({ link: { type: 'edit', scope: 'organization', webUrl: 'https://1drv.ms/u/f1' } });
  });

  it("turns Graph's 429 into a retryable failure after its Retry-After", async () => {
    const outcome = await runRateLimited(microsoftOnedrive, graph, 'createFolder', { name: 'Later' });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 7000 } });
  });
});

describe('microsoft-onedrive: dynamic data', () => {
  it('listFolders: the folders breadth first, every page of each, files left out', async () => {
    expect(await loadAppDynamicData(microsoftOnedrive, 'listFolders', graph.call())).toEqual([
      { name: 'Documents', value: 'docs' },
      { name: 'Photos', value: 'photos' },
      { name: 'Documents/Invoices', value: 'invoices' },
      { name: 'Documents/Invoices/2024', value: '2024' },
    ]);
  });
});
