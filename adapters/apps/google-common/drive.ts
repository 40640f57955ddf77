import {
  type ArgumentMap,
  type DraftContext,
  type DynamicOption,
  defineTrigger,
  dynamicDropdown,
  type HttpClient,
  type InferParameters,
  type Pagination,
  paginate,
  type TriggerDefinition,
} from '../sdk/index.js';
import { DRIVE_V3 } from './apis.js';

export const MIME = {
  folder: 'application/vnd.google-apps.folder',
  spreadsheet: 'application/vnd.google-apps.spreadsheet',
  document: 'application/vnd.google-apps.document',
} as const;

/** Drive's lists answer `nextPageToken`, sent back as `pageToken`. */
export const byPageToken = (items: string): Pagination => ({
  kind: 'cursor',
  items,
  next: 'nextPageToken',
  param: 'pageToken',
});

/** A value inside a Drive query (`q`): single quotes and backslashes escaped, as Drive's query syntax says. */
export const quoted = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Where a files list looks: the user's own files, or a shared drive's (which Drive lists only
 * with `corpora=drive` and both all-drives flags).
 */
export const driveScope = (driveId: string | undefined) => ({
  supportsAllDrives: true,
  ...(driveId && { driveId, corpora: 'drive', includeItemsFromAllDrives: true }),
});

/** The optional shared drive most Drive-backed steps start from (Automatisch's `driveId`). */
export const driveArgument = (what: string) =>
  dynamicDropdown({
    label: 'Drive',
    description: `The Google Drive where your ${what} resides. If nothing is selected, then your personal Google Drive will be used.`,
    dynamicData: 'listDrives',
  });

const draftText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** Dynamic data `listDrives`: "My Google Drive" (the empty choice), then every shared drive. */
export const listDrives = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const drives = await paginate<{ id: string; name: string }>(
    ctx.http,
    { url: `${DRIVE_V3}/drives`, query: { pageSize: 100 } },
    byPageToken('drives'),
  );
  return [{ name: 'My Google Drive', value: '' }, ...drives.map((drive) => ({ name: drive.name, value: drive.id }))];
};

/** Files of one kind (`q`), newest first, as dropdown options; in the drive the draft names. */
export const listDriveFiles = async (ctx: DraftContext, q: string): Promise<DynamicOption[]> => {
  const files = await paginate<{ id: string; name: string }>(
    ctx.http,
    {
      url: `${DRIVE_V3}/files`,
      query: {
        q,
        orderBy: 'createdTime desc',
        pageSize: 1000,
        fields: 'nextPageToken,files(id,name)',
        ...driveScope(draftText(ctx.parameters.driveId)),
      },
    },
    byPageToken('files'),
  );
  return files.map((file) => ({ name: file.name, value: file.id }));
};

export interface DriveFile {
  readonly id: string;
  readonly name?: string;
  readonly modifiedTime?: string;
  readonly [field: string]: unknown;
}

/** Creates a file's metadata in Drive (a Google Doc, a folder...): the new file. */
export const createDriveFile = async (
  http: HttpClient,
  metadata: Readonly<Record<string, unknown>>,
  query: Readonly<Record<string, string | boolean>> = {},
): Promise<DriveFile> =>
  (
    await http.request<DriveFile>({
      method: 'POST',
      url: `${DRIVE_V3}/files`,
      query: { supportsAllDrives: true, ...query },
      body: metadata,
    })
  ).data;

export interface DriveFilesTriggerOptions<M extends ArgumentMap> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  /** The files to watch (`q`) and the shared drive they are in, if any. */
  search(parameters: InferParameters<M>): { readonly q: string; readonly driveId?: string | undefined };
  /** `createdTime` for new files, `modifiedTime` for changed ones: the list is newest first by it. */
  readonly order: 'createdTime' | 'modifiedTime';
  /** A file's id for the engine's deduplication; the file id by default (a new file starts one run). */
  id?(file: DriveFile): string;
}

/**
 * A polling trigger over Drive's file list, newest first. One page of 100 a poll: the engine
 * starts a run for each file it has not seen, and a poll comes every few minutes.
 */
export const driveFilesTrigger = <const M extends ArgumentMap>(
  options: DriveFilesTriggerOptions<M>,
): TriggerDefinition<M, never> =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'polling',
    arguments: options.arguments,
    async run(ctx) {
      const { q, driveId } = options.search(ctx.parameters);
      const { data } = await ctx.http.request<{ files?: DriveFile[] }>({
        url: `${DRIVE_V3}/files`,
        // `*` as Automatisch asks: a run gets every field of the file.
        query: { q, orderBy: `${options.order} desc`, pageSize: 100, fields: '*', ...driveScope(driveId) },
      });
      return (data.files ?? []).map((file) => ({ id: options.id ? options.id(file) : file.id, data: file }));
    },
  });
