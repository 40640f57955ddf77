import { GOOGLE_APIS, listDriveFiles, listDrives, MIME, withGoogleRateLimits } from '../google-common/index.js';
import { type DraftContext, defineApp } from '../sdk/index.js';
import { appendText, createDocument, createDocumentFromTemplate } from './actions.js';
import { googleDocsAuth } from './auth.js';
import { icon } from './icon.js';
import { newDocument, newDocumentInFolder } from './triggers.js';

export const googleDocs = withGoogleRateLimits(
  defineApp({
    key: 'google-docs',
    name: 'Google Docs',
    description: 'Create documents, fill templates and append text; start flows from new documents.',
    icon,
    primaryColor: '#4285f4',
    categories: ['files-and-documents', 'productivity'],
    version: 1,
    auth: googleDocsAuth,
    triggers: [newDocument, newDocumentInFolder],
    actions: [createDocument, appendText, createDocumentFromTemplate],
    dynamicData: {
      listDrives,
      listDocuments: (ctx: DraftContext) => listDriveFiles(ctx, `mimeType='${MIME.document}' and trashed=false`),
      listFolders: (ctx: DraftContext) => listDriveFiles(ctx, `mimeType='${MIME.folder}' and trashed=false`),
    },
    http: { baseUrl: GOOGLE_APIS.docs, relatedApis: [GOOGLE_APIS.www, GOOGLE_APIS.people] },
  }),
);
