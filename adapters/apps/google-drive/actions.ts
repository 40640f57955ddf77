import { createDriveFile, DRIVE_UPLOAD_V3, DRIVE_V3, MIME } from '../google-common/index.js';
import { boolean, defineAction, dynamicDropdown, segment, text } from '../sdk/index.js';
import { drive, folder, parentOf } from './arguments.js';

const parentFolder = folder('Where it goes. Defaults to the top-level folder if none is picked.');

export const createFolder = defineAction({
  key: 'createFolder',
  name: 'Create folder',
  description: 'Creates a folder.',
  arguments: {
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
    driveId: drive,
    folderId: parentFolder,
  },
  run: (ctx) =>
    createDriveFile(ctx.http, {
      name: ctx.parameters.name,
      mimeType: MIME.folder,
      parents: [parentOf(ctx.parameters)],
    }),
});

/** A random MIME boundary that no text can end early (it is not in the text). */
const boundaryFor = (content: string) => {
  for (;;) {
    const boundary = `conveyor-${Math.random().toString(36).slice(2)}`;
    if (!content.includes(boundary)) return boundary;
  }
};

export const createFileFromText = defineAction({
  key: 'createFileFromText',
  name: 'Create file from text',
  description: 'Creates a text file, or a Google Doc, from text.',
  arguments: {
    name: text({ label: 'File name', required: true, acceptsVariables: true }),
    content: text({ label: 'Content', required: true, acceptsVariables: true }),
    convertToDocument: boolean({
      label: 'Convert to Google Doc',
      description: 'Drive converts the text into a Google Doc instead of keeping a .txt file.',
      default: false,
    }),
    driveId: drive,
    folderId: parentFolder,
  },
  async run(ctx) {
    const { name, content, convertToDocument } = ctx.parameters;
    const metadata = {
      name,
      parents: [parentOf(ctx.parameters)],
      ...(convertToDocument && { mimeType: MIME.document }),
    };
    // Drive's multipart upload: the metadata and the content in one request.
    const boundary = boundaryFor(content);
    const body = [
      `--${boundary}`,
      'Content-Type: application/json; charset=UTF-8',
      '',
      JSON.stringify(metadata),
      `--${boundary}`,
      'Content-Type: text/plain; charset=UTF-8',
      '',
      content,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const { data } = await ctx.http.request({
      method: 'POST',
      url: `${DRIVE_UPLOAD_V3}/files`,
      query: { uploadType: 'multipart', supportsAllDrives: true },
      headers: { 'content-type': `multipart/related; boundary=${boundary}` },
      body,
    });
    return data;
  },
});

export const copyFile = defineAction({
  key: 'copyFile',
  name: 'Copy file',
  description: 'Copies a file, under a new name or into another folder.',
  arguments: {
    driveId: drive,
    fileId: dynamicDropdown({
      label: 'File',
      required: true,
      acceptsVariables: true,
      dynamicData: 'listFiles',
      dependsOn: ['driveId'],
    }),
    name: text({ label: 'New name', description: 'Empty: "Copy of" the original name.', acceptsVariables: true }),
    folderId: folder('Where the copy goes. Empty: beside the original.'),
  },
  async run(ctx) {
    const { fileId, name, folderId } = ctx.parameters;
    const { data } = await ctx.http.request({
      method: 'POST',
      url: `${DRIVE_V3}/files/${segment(fileId)}/copy`,
      query: { supportsAllDrives: true },
      body: { ...(name && { name }), ...(folderId && { parents: [folderId] }) },
    });
    return data;
  },
});
