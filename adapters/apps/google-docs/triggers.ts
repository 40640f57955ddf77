import { driveArgument, driveFilesTrigger, MIME, quoted } from '../google-common/index.js';
import { dynamicDropdown } from '../sdk/index.js';

const DOCUMENTS = `mimeType='${MIME.document}' and trashed=false`;
const drive = driveArgument('document');

export const newDocument = driveFilesTrigger({
  key: 'newDocument',
  name: 'New document',
  description: 'Triggers when you create a new Google Doc.',
  arguments: { driveId: drive },
  search: (p) => ({ q: DOCUMENTS, driveId: p.driveId }),
  order: 'createdTime',
});

export const newDocumentInFolder = driveFilesTrigger({
  key: 'newDocumentInFolder',
  name: 'New document in folder',
  description: 'Triggers when a new Google Doc is added directly to a folder (not its subfolders).',
  arguments: {
    driveId: drive,
    folderId: dynamicDropdown({
      label: 'Folder',
      required: true,
      acceptsVariables: true,
      dynamicData: 'listFolders',
      dependsOn: ['driveId'],
    }),
  },
  search: (p) => ({ q: `${DOCUMENTS} and ${quoted(p.folderId)} in parents`, driveId: p.driveId }),
  order: 'createdTime',
});
