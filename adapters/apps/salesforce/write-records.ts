import { defineAction, dropdown, dynamicDropdown, keyValueList, restAction, text } from '../sdk/index.js';
import { API, apiName, sobjectPath } from './api.js';

const object = dynamicDropdown({
  label: 'Object',
  required: true,
  dynamicData: 'listObjects',
  acceptsVariables: true,
  check: apiName,
});

const fields = keyValueList({
  label: 'Fields',
  required: true,
  description: "Each field's API name (FirstName, My_Field__c) and its value.",
  acceptsVariables: true,
});

const fieldValues = (rows: readonly { key: string; value: string }[]) =>
  Object.fromEntries(rows.map((row) => [row.key, row.value]));

export const createRecord = restAction({
  key: 'createRecord',
  name: 'Create record',
  description: 'Creates a record of an object; the output has its `id`.',
  arguments: { object, fields },
  request: (p) => ({ method: 'POST', path: sobjectPath(p.object), body: fieldValues(p.fields) }),
});

export const updateRecord = defineAction({
  key: 'updateRecord',
  name: 'Update record',
  description: 'Changes the given fields of a record.',
  arguments: {
    object,
    recordId: text({ label: 'Record ID', required: true, acceptsVariables: true }),
    fields,
  },
  async run(ctx) {
    const { object: name, recordId, fields: rows } = ctx.parameters;
    // Salesforce answers 204 with no body.
    await ctx.http.request({ method: 'PATCH', path: sobjectPath(name, recordId), body: fieldValues(rows) });
    return { id: recordId, updated: true };
  },
});

export const createAttachment = restAction({
  key: 'createAttachment',
  name: 'Create attachment',
  description: 'Attaches a file to a record (an account, case, contact, lead, opportunity, task...).',
  arguments: {
    parentId: text({
      label: 'Parent ID',
      required: true,
      description: 'ID of the record the file is attached to.',
      acceptsVariables: true,
    }),
    name: text({
      label: 'Name',
      required: true,
      description: 'The file name (255 characters at most).',
      acceptsVariables: true,
    }),
    body: text({
      label: 'Body',
      required: true,
      description: 'The file content (25 MB at most).',
      acceptsVariables: true,
    }),
    bodyEncoding: dropdown({
      label: 'Body is',
      default: 'base64',
      options: [
        { label: 'Base64 (sent as it is)', value: 'base64' },
        { label: 'Text (encoded as UTF-8)', value: 'text' },
      ],
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: `${API}/sobjects/Attachment`,
    body: {
      ParentId: p.parentId,
      Name: p.name,
      // Salesforce takes an attachment's body as base64.
      Body: p.bodyEncoding === 'text' ? Buffer.from(p.body, 'utf8').toString('base64') : p.body,
    },
  }),
});
