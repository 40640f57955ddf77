import { createDriveFile, DRIVE_V3, driveArgument, MIME } from '../google-common/index.js';
import { defineAction, dynamicDropdown, keyValueList, segment, text } from '../sdk/index.js';
import { batchUpdate } from './documents.js';

export const createDocument = defineAction({
  key: 'createDocument',
  name: 'Create document',
  description: 'Create a blank Google Doc or duplicate an existing document. Optionally, provide initial content.',
  arguments: {
    title: text({
      label: 'Title',
      required: true,
      description: 'The title of the new document.',
      acceptsVariables: true,
    }),
    content: text({
      label: 'Content',
      description: 'Optional text to insert into the new document.',
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const { title, content } = ctx.parameters;
    const file = await createDriveFile(ctx.http, { name: title, mimeType: MIME.document });
    // A new document's body starts at index 1.
    if (content) await batchUpdate(ctx.http, file.id, [{ insertText: { location: { index: 1 }, text: content } }]);
    return file;
  },
});

const documentArgument = (label: string) =>
  dynamicDropdown({
    label,
    required: true,
    acceptsVariables: true,
    dynamicData: 'listDocuments',
    dependsOn: ['driveId'],
  });

export const appendText = defineAction({
  key: 'appendText',
  name: 'Append text',
  description: 'Adds text at the end of a document.',
  arguments: {
    driveId: driveArgument('document'),
    documentId: documentArgument('Document'),
    text: text({ label: 'Text', required: true, acceptsVariables: true }),
  },
  run: (ctx) =>
    batchUpdate(ctx.http, ctx.parameters.documentId, [
      { insertText: { endOfSegmentLocation: {}, text: ctx.parameters.text } },
    ]),
});

export const createDocumentFromTemplate = defineAction({
  key: 'createDocumentFromTemplate',
  name: 'Create document from template',
  description: 'Copies a document and fills its {{placeholders}} in.',
  arguments: {
    driveId: driveArgument('template'),
    templateId: documentArgument('Template'),
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    replacements: keyValueList({
      label: 'Placeholders',
      description: 'Each {{key}} of the template is replaced by its value, wherever it appears (case counts).',
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const { templateId, title, replacements } = ctx.parameters;
    const { data: copy } = await ctx.http.request<{ id: string; name: string }>({
      method: 'POST',
      url: `${DRIVE_V3}/files/${segment(templateId)}/copy`,
      query: { supportsAllDrives: true },
      body: { name: title },
    });
    const requests = (replacements ?? []).map(({ key, value }) => ({
      replaceAllText: { containsText: { text: `{{${key}}}`, matchCase: true }, replaceText: value },
    }));
    const updated = requests.length > 0 ? await batchUpdate(ctx.http, copy.id, requests) : { replies: [] };
    return { documentId: copy.id, title: copy.name, replies: updated.replies ?? [] };
  },
});
