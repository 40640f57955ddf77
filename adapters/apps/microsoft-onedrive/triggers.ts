import { deltaTrigger } from './delta-trigger.js';
import { driveId, folderId } from './folders.js';

const created = (item: { readonly createdDateTime?: string }) => item.createdDateTime ?? '';
const modified = (item: { readonly lastModifiedDateTime?: string }) => item.lastModifiedDateTime ?? '';

export const newFile = deltaTrigger({
  key: 'newFile',
  name: 'New file',
  description: 'Starts a run for each file created in a folder (or anywhere in the drive).',
  arguments: { driveId, folderId },
  accept: (item, since) => item.file !== undefined && created(item) >= since,
  id: (item) => item.id,
  order: created,
});

export const updatedFile = deltaTrigger({
  key: 'updatedFile',
  name: 'New or updated file',
  description: 'Starts a run for each file created or changed in a folder (or anywhere in the drive).',
  arguments: { driveId, folderId },
  accept: (item) => item.file !== undefined,
  // Each version is a run of its own: a file saved twice starts two.
  id: (item) => `${item.id}@${modified(item)}`,
  order: modified,
});

export const newFolder = deltaTrigger({
  key: 'newFolder',
  name: 'New folder',
  description: 'Starts a run for each folder created in a folder (or anywhere in the drive).',
  arguments: { driveId, folderId },
  accept: (item, since) => item.folder !== undefined && created(item) >= since,
  id: (item) => item.id,
  order: created,
});
