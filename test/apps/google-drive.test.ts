import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { googleDrive } from '../../adapters/apps/google-drive/index.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeGoogleConnection,
  type FakeGoogle,
  googleError,
  startFakeGoogle,
} from './support/google-common-fake.js';

const FOLDER = 'application/vnd.google-apps.folder';

/** 130 entries, newest first: every third a folder. */
const FILES = Array.from({ length: 130 }, (_, i) => {
  const n = 130 - i;
  return {
    kind: 'drive#file',
    id: `f${n}`,
    name: n % 3 === 0 ? `Folder ${n}` : `Report ${n}.pdf`,
    mimeType: n % 3 === 0 ? FOLDER : 'application/pdf',
    parents: ['root'],
    createdTime: new Date(Date.UTC(2024, 0, 1, 0, n)).toISOString(),
    modifiedTime: new Date(Date.UTC(2024, 1, 1, 0, n)).toISOString(),
  };
});

/** Drive's files.list: folders or files as `q` says, paged by pageToken (an offset here). */
const list = (req: FakeRequest) => {
  const q = req.query.q ?? '';
  const matching = FILES.filter((file) =>
    q.includes(`mimeType='${FOLDER}'`) ? file.mimeType === FOLDER : file.mimeType !== FOLDER,
  );
  const start = Number(req.query.pageToken ?? 0);
  const size = Math.min(Number(req.query.pageSize ?? 100), 50);
  const next = start + size < matching.length ? String(start + size) : undefined;
  return { files: matching.slice(start, start + size), ...(next && { nextPageToken: next }) };
};

/** The parts of a multipart/related body, by the boundary its content type names. */
const parts = (req: FakeRequest) => {
  const boundary = /boundary=(.+)$/.exec(req.headers['content-type'] ?? '')?.[1] ?? '';
  return req.rawBody
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = '', ...body] = part.replace(/^\r\n/, '').split('\r\n\r\n');
      return { type: head.replace('Content-Type: ', ''), body: body.join('\r\n\r\n').replace(/\r\n$/, '') };
    });
};

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle({
    'GET /drive/v3/files': list,
    'GET /drive/v3/drives': () => ({ drives: [{ id: '0ADx', name: 'Finance' }] }),
    'POST /drive/v3/files': (req) => ({ kind: 'drive#file', id: 'new-folder', ...(req.body as object) }),
    'POST /upload/drive/v3/files': (req) => {
      if (req.query.uploadType !== 'multipart')
        return googleError(400, 'Bad Request', 'INVALID_ARGUMENT', 'badRequest');
      const [metadata, content] = parts(req);
      return { kind: 'drive#file', id: 'uploaded', ...JSON.parse(metadata?.body ?? '{}'), received: content };
    },
    'POST /drive/v3/files/:id/copy': (req) =>
      req.params.id === 'f1'
        ? { kind: 'drive#file', id: 'copy-of-f1', name: 'Copy of Report 1.pdf', ...(req.body as object) }
        : googleError(404, `File not found: ${req.params.id}.`, 'NOT_FOUND', 'notFound'),
  });
});
afterAll(() => google.close());

describe('google-drive: keeps Automatisch keys', () => {
  it('app, client settings, triggers with their arguments, dynamic data', () => {
    const steps = (items: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(items.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(googleDrive.key).toBe('google-drive');
    expect(googleDrive.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps(googleDrive.manifest.triggers)).toEqual({
      newFiles: ['driveId'],
      newFilesInFolder: ['driveId', 'folderId'],
      newFolders: ['driveId', 'folderId'],
      updatedFiles: ['driveId', 'folderId', 'includeDeleted'],
    });
    // Automatisch's Drive has no actions; these are ours.
    expect(steps(googleDrive.manifest.actions)).toEqual({
      createFolder: ['name', 'driveId', 'folderId'],
      createFileFromText: ['name', 'content', 'convertToDocument', 'driveId', 'folderId'],
      copyFile: ['driveId', 'fileId', 'name', 'folderId'],
    });
    expect(Object.keys(googleDrive.dynamicData)).toEqual(expect.arrayContaining(['listDrives', 'listFolders']));
  });
});

describeGoogleConnection(() => ({
  app: googleDrive,
  google,
  scopes: ['https://www.googleapis.com/auth/drive'],
  refreshedBy: { kind: 'trigger', key: 'newFiles', parameters: {}, route: 'GET /drive/v3/files' },
}));

const lastQuery = () => google.vendor.calls('GET /drive/v3/files').at(-1)?.query;

describe('google-drive: triggers', () => {
  it('newFiles: files (no folders, none trashed) newest first, by file id', async () => {
    const items = await runAppTrigger(googleDrive, 'newFiles', google.call());
    expect(items[0]).toEqual({ id: 'f130', data: FILES[0] });
    expect(items.every((item) => (item.data as { mimeType: string }).mimeType !== FOLDER)).toBe(true);
    expect(lastQuery()).toEqual({
      q: `mimeType!='${FOLDER}' and trashed=false`,
      orderBy: 'createdTime desc',
      pageSize: '100',
      fields: '*',
      supportsAllDrives: 'true',
    });
  });

  it("newFilesInFolder and newFolders: only the folder's direct children, quoted; the drive's top by default", async () => {
    await runAppTrigger(googleDrive, 'newFilesInFolder', google.call({ folderId: "Ann's" }));
    expect(lastQuery()?.q).toBe(`mimeType!='${FOLDER}' and trashed=false and 'Ann\\'s' in parents`);
    await runAppTrigger(googleDrive, 'newFilesInFolder', google.call());
    expect(lastQuery()?.q).toBe(`mimeType!='${FOLDER}' and trashed=false and 'root' in parents`);
    const folders = await runAppTrigger(googleDrive, 'newFolders', google.call({ driveId: '0ADx' }));
    expect(folders[0]?.id).toBe('f129');
    expect(lastQuery()).toMatchObject({
      q: `mimeType='${FOLDER}' and trashed=false and '0ADx' in parents`,
      driveId: '0ADx',
      corpora: 'drive',
      includeItemsFromAllDrives: 'true',
    });
  });

  it('updatedFiles: newest change first, one run per file and modification time; trashed ones only when asked', async () => {
    const items = await runAppTrigger(googleDrive, 'updatedFiles', google.call({ folderId: 'fold1' }));
    expect(items[0]?.id).toBe(`f130-${FILES[0]?.modifiedTime}`);
    expect(lastQuery()).toMatchObject({
      q: `mimeType!='${FOLDER}' and 'fold1' in parents`,
      orderBy: 'modifiedTime desc',
    });
    await runAppTrigger(googleDrive, 'updatedFiles', google.call({ folderId: 'fold1', includeDeleted: 'false' }));
    expect(lastQuery()?.q).toBe(`mimeType!='${FOLDER}' and trashed=false and 'fold1' in parents`);
  });
});

describe('google-drive: actions', () => {
  it('creates a folder in the chosen folder, or at the top of the shared drive', async () => {
    expect(
      await runAppAction(googleDrive, 'createFolder', google.call({ name: 'Invoices', folderId: 'f3' })),
    ).toMatchObject({
      id: 'new-folder',
      name: 'Invoices',
    });
    expect(google.vendor.calls('POST /drive/v3/files').at(-1)?.body).toEqual({
      name: 'Invoices',
      mimeType: FOLDER,
      parents: ['f3'],
    });
    await runAppAction(googleDrive, 'createFolder', google.call({ name: 'Team', driveId: '0ADx' }));
    expect(google.vendor.calls('POST /drive/v3/files').at(-1)?.body).toMatchObject({ parents: ['0ADx'] });
    expect(google.vendor.calls('POST /drive/v3/files').at(-1)?.query).toEqual({ supportsAllDrives: 'true' });
  });

  it('uploads text with its metadata in one multipart request, converted to a Doc when asked', async () => {
    const output = await runAppAction(
      googleDrive,
      'createFileFromText',
      google.call({ name: 'notes.txt', content: 'Line 1\r\n\r\nLine 3', convertToDocument: true }),
    );
    expect(output).toEqual({
      kind: 'drive#file',
      id: 'uploaded',
      name: 'notes.txt',
      parents: ['root'],
      mimeType: 'application/vnd.google-apps.document',
      received: { type: 'text/plain; charset=UTF-8', body: 'Line 1\r\n\r\nLine 3' },
    });
    expect(google.vendor.calls('POST /upload/drive/v3/files').at(-1)?.headers['content-type']).toMatch(
      /^multipart\/related; boundary=conveyor-/,
    );
  });

  it("copies a file, and fails with Drive's message for an unknown one", async () => {
    expect(await runAppAction(googleDrive, 'copyFile', google.call({ fileId: 'f1', folderId: 'f3' }))).toMatchObject({
      id: 'copy-of-f1',
      parents: ['f3'],
    });
    expect(google.vendor.calls('POST /drive/v3/files/:id/copy').at(-1)?.body).toEqual({ parents: ['f3'] });
    await expect(runAppAction(googleDrive, 'copyFile', google.call({ fileId: 'nope' }))).rejects.toThrow(
      /File not found: nope\./,
    );
  });
});

describe('google-drive: dynamic data', () => {
  it('lists every page of folders and of files', async () => {
    const folders = await loadAppDynamicData(googleDrive, 'listFolders', google.call());
    expect(folders).toHaveLength(43);
    expect(folders[0]).toEqual({ name: 'Folder 129', value: 'f129' });
    const files = await loadAppDynamicData(googleDrive, 'listFiles', google.call());
    expect(files).toHaveLength(87);
    expect(
      google.vendor
        .calls('GET /drive/v3/files')
        .slice(-2)
        .map((request) => request.query.pageToken),
    ).toEqual([undefined, '50']);
    expect(await loadAppDynamicData(googleDrive, 'listDrives', google.call())).toEqual([
      { name: 'My Google Drive', value: '' },
      { name: 'Finance', value: '0ADx' },
    ]);
  });
});
