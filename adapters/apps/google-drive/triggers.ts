import { driveFilesTrigger, MIME, quoted } from '../google-common/index.js';
import { dropdown } from '../sdk/index.js';
import { drive, folder, parentOf } from './arguments.js';

const NOT_FOLDER = `mimeType!='${MIME.folder}'`;

export const newFiles = driveFilesTrigger({
  key: 'newFiles',
  name: 'New files',
  description: 'Triggers when any new file is added (inside of any folder).',
  arguments: { driveId: drive },
  search: (p) => ({ q: `${NOT_FOLDER} and trashed=false`, driveId: p.driveId }),
  order: 'createdTime',
});

export const newFilesInFolder = driveFilesTrigger({
  key: 'newFilesInFolder',
  name: 'New files in folder',
  description: 'Triggers when a new file is added directly to a specific folder (but not its subfolder).',
  arguments: {
    driveId: drive,
    folderId: folder(
      'Check a specific folder for new files. New files added to subfolders will not trigger this flow. Defaults to the top-level folder if none is picked.',
    ),
  },
  search: (p) => ({ q: `${NOT_FOLDER} and trashed=false and ${quoted(parentOf(p))} in parents`, driveId: p.driveId }),
  order: 'createdTime',
});

export const newFolders = driveFilesTrigger({
  key: 'newFolders',
  name: 'New folders',
  description: 'Triggers when a new folder is added directly to a specific folder (but not its subfolder).',
  arguments: {
    driveId: drive,
    folderId: folder(
      'Check a specific folder for new subfolders. Folders added deeper will not trigger this flow. Defaults to the top-level folder if none is picked.',
    ),
  },
  search: (p) => ({
    q: `mimeType='${MIME.folder}' and trashed=false and ${quoted(parentOf(p))} in parents`,
    driveId: p.driveId,
  }),
  order: 'createdTime',
});

export const updatedFiles = driveFilesTrigger({
  key: 'updatedFiles',
  name: 'Updated files',
  description: 'Triggers when a file is updated in a specific folder (but not its subfolder).',
  arguments: {
    driveId: drive,
    folderId: folder(
      'Check a specific folder for updated files. Files in its subfolders will not trigger this flow. Defaults to the top-level folder if none is picked.',
    ),
    includeDeleted: dropdown({
      label: 'Include Deleted',
      required: true,
      default: true,
      description: 'Should this trigger also on files that are deleted?',
      options: [
        { label: 'Yes', value: true },
        { label: 'No', value: false },
      ],
    }),
  },
  search: (p) => ({
    q: `${NOT_FOLDER}${p.includeDeleted ? '' : ' and trashed=false'} and ${quoted(parentOf(p))} in parents`,
    driveId: p.driveId,
  }),
  order: 'modifiedTime',
  // Each change is one run: the same file again once it is modified again.
  id: (file) => `${file.id}-${file.modifiedTime ?? ''}`,
});
