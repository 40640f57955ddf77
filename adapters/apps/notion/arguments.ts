import { dynamicDropdown, text } from '../sdk/index.js';

export const databaseId = dynamicDropdown({
  label: 'Database',
  required: true,
  dynamicData: 'listDatabases',
  acceptsVariables: true,
});

/** Automatisch's text fields: Notion cuts rich text at 2,000 characters, and so do the steps. */
export const longText = (label: string, description: string) =>
  text({ label, description: `${description} Up to 2,000 characters; the rest is left out.`, acceptsVariables: true });
