import { GRAPH_API, listDrives } from '../microsoft-common/index.js';
import { defineApp } from '../sdk/index.js';
import { createFolder, createSharingLink, uploadFile } from './actions.js';
import { onedriveAuth } from './auth.js';
import { listFolders } from './folders.js';
import { icon } from './icon.js';
import { newFile, newFolder, updatedFile } from './triggers.js';

export const microsoftOnedrive = defineApp({
  key: 'microsoft-onedrive',
  name: 'Microsoft OneDrive',
  description: 'Files and folders in OneDrive and SharePoint document libraries.',
  icon,
  primaryColor: '#0364b8',
  categories: ['files-and-documents'],
  version: 1,
  auth: onedriveAuth,
  triggers: [newFile, updatedFile, newFolder],
  actions: [createFolder, uploadFile, createSharingLink],
  dynamicData: { listDrives, listFolders },
  http: { baseUrl: GRAPH_API },
});
