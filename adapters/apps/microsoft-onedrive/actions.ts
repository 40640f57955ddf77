import { driveRoot } from '../microsoft-common/index.js';
import { dropdown, matches, restAction, segment, text } from '../sdk/index.js';
import { driveId, folderId, folderPath } from './folders.js';

const conflictBehavior = dropdown({
  label: 'If the name is taken',
  default: 'rename',
  options: [
    { label: 'Keep both (rename the new one)', value: 'rename' },
    { label: 'Replace', value: 'replace' },
    { label: 'Fail', value: 'fail' },
  ],
});

/** OneDrive refuses these characters in names; `/` would also name another folder. */
const NAME = matches(/^[^"*:<>?/\\|]+$/, 'must not contain " * : < > ? / \\ |.');

export const createFolder = restAction({
  key: 'createFolder',
  name: 'Create folder',
  description: 'Creates a folder in a folder; answers the folder (its id and webUrl).',
  arguments: {
    driveId,
    folderId,
    name: text({ label: 'Name', required: true, acceptsVariables: true, check: NAME }),
    conflictBehavior,
  },
  request: (p) => ({
    method: 'POST',
    path: `${folderPath(p.driveId, p.folderId)}/children`,
    body: { name: p.name, folder: {}, '@microsoft.graph.conflictBehavior': p.conflictBehavior },
  }),
});

export const uploadFile = restAction({
  key: 'uploadFile',
  name: 'Upload file',
  description: 'Creates a file from text in a folder (up to 4 MB); answers the file.',
  arguments: {
    driveId,
    folderId,
    fileName: text({
      label: 'File name',
      required: true,
      placeholder: 'notes.txt',
      acceptsVariables: true,
      check: NAME,
    }),
    content: text({ label: 'Content', required: true, acceptsVariables: true }),
    conflictBehavior,
  },
  request: (p) => ({
    method: 'PUT',
    // Path-based addressing: the folder, then the new file's name, then its content.
    path: `${folderPath(p.driveId, p.folderId)}:/${segment(p.fileName)}:/content`,
    query: { '@microsoft.graph.conflictBehavior': p.conflictBehavior },
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: p.content,
  }),
});

export const createSharingLink = restAction({
  key: 'createSharingLink',
  name: 'Create sharing link',
  description: 'Makes a link to a file or folder; answers the permission, the link in link.webUrl.',
  arguments: {
    driveId,
    itemId: text({ label: 'File or folder ID', required: true, acceptsVariables: true }),
    type: dropdown({
      label: 'Access',
      default: 'view',
      options: [
        { label: 'View', value: 'view' },
        { label: 'Edit', value: 'edit' },
      ],
    }),
    scope: dropdown({
      label: 'Who',
      default: 'anonymous',
      description: "Anyone with the link, or your organization's people (work and school accounts).",
      options: [
        { label: 'Anyone with the link', value: 'anonymous' },
        { label: 'People in my organization', value: 'organization' },
      ],
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: `${driveRoot(p.driveId)}/items/${segment(p.itemId)}/createLink`,
    body: { type: p.type, scope: p.scope },
  }),
});
