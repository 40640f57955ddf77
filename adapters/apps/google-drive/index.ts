import { GOOGLE_APIS, listDriveFiles, listDrives, MIME, withGoogleRateLimits } from '../google-common/index.js';
import { type DraftContext, defineApp } from '../sdk/index.js';
import { copyFile, createFileFromText, createFolder } from './actions.js';
import { googleDriveAuth } from './auth.js';
import { icon } from './icon.js';
import { newFiles, newFilesInFolder, newFolders, updatedFiles } from './triggers.js';

export const googleDrive = withGoogleRateLimits(
  defineApp({
    key: 'google-drive',
    name: 'Google Drive',
    description: 'Start flows from new and updated files and folders; create folders and files, copy files.',
    icon,
    primaryColor: '#1fa463',
    categories: ['files-and-documents'],
    version: 1,
    auth: googleDriveAuth,
    triggers: [newFiles, newFilesInFolder, newFolders, updatedFiles],
    actions: [createFolder, createFileFromText, copyFile],
    dynamicData: {
      listDrives,
      listFolders: (ctx: DraftContext) => listDriveFiles(ctx, `mimeType='${MIME.folder}' and trashed=false`),
      listFiles: (ctx: DraftContext) => listDriveFiles(ctx, `mimeType!='${MIME.folder}' and trashed=false`),
    },
    http: { baseUrl: GOOGLE_APIS.www, relatedApis: [GOOGLE_APIS.people] },
  }),
);
