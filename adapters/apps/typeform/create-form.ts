import * as v from 'valibot';
import { dynamicDropdown, json, restAction, text } from '../sdk/index.js';
import { TYPEFORM_API } from './auth.js';

export const createForm = restAction({
  key: 'createForm',
  name: 'Create form',
  description: 'Creates a form, optionally in a workspace and with its fields, and returns it.',
  arguments: {
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    workspaceId: dynamicDropdown({ label: 'Workspace', dynamicData: 'listWorkspaces', acceptsVariables: true }),
    fields: json({
      label: 'Fields',
      description: 'Typeform field definitions, a JSON list: [{"title": "Your name?", "type": "short_text"}].',
      schema: v.array(v.record(v.string(), v.unknown()), 'must be a JSON list of field objects.'),
    }),
  },
  request: (p) => ({
    method: 'POST',
    path: '/forms',
    body: {
      title: p.title,
      // Typeform names a workspace by its API address, always on api.typeform.com.
      workspace: p.workspaceId
        ? { href: `${TYPEFORM_API}/workspaces/${encodeURIComponent(p.workspaceId)}` }
        : undefined,
      fields: p.fields,
    },
  }),
});
