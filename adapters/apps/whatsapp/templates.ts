import { type DraftContext, paginate, segment } from '../sdk/index.js';
import { connectionOf } from './auth.js';

interface Template {
  readonly name: string;
  readonly language: string;
  readonly status: string;
}

/** The business account's approved templates, by name with their languages, every page. */
export const listTemplates = async (ctx: DraftContext) => {
  const templates = await paginate<Template>(
    ctx.http,
    {
      path: `/${segment(connectionOf(ctx.auth).businessAccountId)}/message_templates`,
      query: { fields: 'name,language,status', status: 'APPROVED', limit: 100 },
    },
    {
      kind: 'cursor',
      items: 'data',
      // Graph pages carry a `next` link while more follow; the `after` cursor asks for it.
      next: (data) => (data?.paging?.next ? data.paging.cursors?.after : null),
      param: 'after',
    },
  );
  const languages = new Map<string, string[]>();
  for (const template of templates) {
    if (template.status !== 'APPROVED') continue;
    languages.set(template.name, [...(languages.get(template.name) ?? []), template.language]);
  }
  return [...languages].map(([name, codes]) => ({ name: `${name} (${codes.join(', ')})`, value: name }));
};
