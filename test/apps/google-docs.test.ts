import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger } from '../../adapters/apps/app-harness.js';
import { googleDocs } from '../../adapters/apps/google-docs/index.js';
import type { FakeRequest } from '../support/fake-vendor.js';
import {
  describeGoogleConnection,
  type FakeGoogle,
  googleError,
  startFakeGoogle,
} from './support/google-common-fake.js';

const DOC = 'application/vnd.google-apps.document';

/** 120 Docs, newest first. */
const DOCS = Array.from({ length: 120 }, (_, i) => ({
  kind: 'drive#file',
  id: `doc${120 - i}`,
  name: `Notes ${120 - i}`,
  mimeType: DOC,
}));

const list = (req: FakeRequest) => {
  const start = Number(req.query.pageToken ?? 0);
  const size = Math.min(Number(req.query.pageSize ?? 100), 100);
  const next = start + size < DOCS.length ? String(start + size) : undefined;
  return { files: DOCS.slice(start, start + size), ...(next && { nextPageToken: next }) };
};

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle({
    'GET /drive/v3/files': list,
    'POST /drive/v3/files': (req) => ({ kind: 'drive#file', id: 'doc-new', ...(req.body as object) }),
    'POST /drive/v3/files/:id/copy': (req) =>
      req.params.id === 'doc1'
        ? { kind: 'drive#file', id: 'doc-copy', name: (req.body as { name: string }).name, mimeType: DOC }
        : googleError(404, `File not found: ${req.params.id}.`, 'NOT_FOUND', 'notFound'),
    'POST /v1/documents/:target': (req) => {
      const [id, verb] = (req.params.target ?? '').split(':');
      if (verb !== 'batchUpdate' || !id?.startsWith('doc')) {
        return googleError(404, 'Requested entity was not found.', 'NOT_FOUND');
      }
      const requests = (req.body as { requests: Record<string, unknown>[] }).requests;
      return {
        documentId: id,
        replies: requests.map((request) =>
          'replaceAllText' in request ? { replaceAllText: { occurrencesChanged: 2 } } : {},
        ),
        writeControl: { requiredRevisionId: 'rev2' },
      };
    },
  });
});
afterAll(() => google.close());

describe('google-docs: keeps Automatisch keys', () => {
  it('app, client settings, triggers and actions with their arguments', () => {
    const steps = (items: readonly { key: string; arguments: readonly { key: string }[] }[]) =>
      Object.fromEntries(items.map((step) => [step.key, step.arguments.map((argument) => argument.key)]));
    expect(googleDocs.key).toBe('google-docs');
    expect(googleDocs.manifest.auth.clientFields.map((field) => field.key)).toEqual(['clientId', 'clientSecret']);
    expect(steps(googleDocs.manifest.triggers)).toEqual({
      newDocument: ['driveId'],
      newDocumentInFolder: ['driveId', 'folderId'],
    });
    expect(steps(googleDocs.manifest.actions)).toEqual({
      createDocument: ['title', 'content'],
      appendText: ['driveId', 'documentId', 'text'],
      createDocumentFromTemplate: ['driveId', 'templateId', 'title', 'replacements'],
    });
    expect(Object.keys(googleDocs.dynamicData)).toContain('listDrives');
  });
});

describeGoogleConnection(() => ({
  app: googleDocs,
  google,
  scopes: ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/documents'],
  refreshedBy: {
    kind: 'action',
    key: 'appendText',
    parameters: { documentId: 'doc1', text: 'x' },
    route: 'POST /v1/documents/:target',
  },
}));

describe('google-docs: actions', () => {
  it('creates a Doc through Drive, then writes the content at the start of its body', async () => {
    const output = await runAppAction(
      googleDocs,
      'createDocument',
      google.call({ title: 'Minutes', content: 'Present: Ann' }),
    );
    expect(output).toEqual({ kind: 'drive#file', id: 'doc-new', name: 'Minutes', mimeType: DOC });
    expect(google.vendor.calls('POST /drive/v3/files').at(-1)?.body).toEqual({ name: 'Minutes', mimeType: DOC });
    const update = google.vendor.calls('POST /v1/documents/:target').at(-1);
    expect(update?.path).toBe('/v1/documents/doc-new:batchUpdate');
    expect(update?.body).toEqual({ requests: [{ insertText: { location: { index: 1 }, text: 'Present: Ann' } }] });
    const before = google.vendor.calls('POST /v1/documents/:target').length;
    await runAppAction(googleDocs, 'createDocument', google.call({ title: 'Blank' }));
    expect(google.vendor.calls('POST /v1/documents/:target')).toHaveLength(before);
  });

  it("appends at the end of the body, and fails with Docs' message for an unknown document", async () => {
    const output = await runAppAction(googleDocs, 'appendText', google.call({ documentId: 'doc7', text: '\nDone.' }));
    expect(output).toMatchObject({ documentId: 'doc7', replies: [{}] });
    expect(google.vendor.calls('POST /v1/documents/:target').at(-1)?.body).toEqual({
      requests: [{ insertText: { endOfSegmentLocation: {}, text: '\nDone.' } }],
    });
    await expect(runAppAction(googleDocs, 'appendText', google.call({ documentId: 'x9', text: 'a' }))).rejects.toThrow(
      /answered 404: Requested entity was not found\./,
    );
  });

  it('copies a template and replaces each {{placeholder}}, matching case', async () => {
    const output = await runAppAction(
      googleDocs,
      'createDocumentFromTemplate',
      google.call({
        templateId: 'doc1',
        title: 'Invoice 42',
        replacements: [
          { key: 'name', value: 'Ann' },
          { key: 'total', value: '12.50' },
        ],
      }),
    );
    expect(google.vendor.calls('POST /drive/v3/files/:id/copy').at(-1)?.body).toEqual({ name: 'Invoice 42' });
    expect(google.vendor.calls('POST /v1/documents/:target').at(-1)?.body).toEqual({
      requests: [
        { replaceAllText: { containsText: { text: '{{name}}', matchCase: true }, replaceText: 'Ann' } },
        { replaceAllText: { containsText: { text: '{{total}}', matchCase: true }, replaceText: '12.50' } },
      ],
    });
    expect(output).toEqual({
      documentId: 'doc-copy',
      title: 'Invoice 42',
      replies: [{ replaceAllText: { occurrencesChanged: 2 } }, { replaceAllText: { occurrencesChanged: 2 } }],
    });
  });
});

describe('google-docs: triggers and dynamic data', () => {
  it('newDocument and newDocumentInFolder: Docs newest first, by file id', async () => {
    const items = await runAppTrigger(googleDocs, 'newDocument', google.call());
    expect(items[0]).toEqual({ id: 'doc120', data: DOCS[0] });
    expect(google.vendor.calls('GET /drive/v3/files').at(-1)?.query).toMatchObject({
      q: `mimeType='${DOC}' and trashed=false`,
      orderBy: 'createdTime desc',
    });
    await runAppTrigger(googleDocs, 'newDocumentInFolder', google.call({ folderId: 'fold1', driveId: '0ADz' }));
    expect(google.vendor.calls('GET /drive/v3/files').at(-1)?.query).toMatchObject({
      q: `mimeType='${DOC}' and trashed=false and 'fold1' in parents`,
      driveId: '0ADz',
      corpora: 'drive',
    });
  });

  it('lists every page of documents', async () => {
    const documents = await loadAppDynamicData(googleDocs, 'listDocuments', google.call());
    expect(documents).toHaveLength(120);
    expect(documents[0]).toEqual({ name: 'Notes 120', value: 'doc120' });
    expect(
      google.vendor
        .calls('GET /drive/v3/files')
        .slice(-2)
        .map((r) => r.query.pageToken),
    ).toEqual([undefined, '100']);
  });
});
