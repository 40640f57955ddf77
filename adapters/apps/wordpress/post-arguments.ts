import * as v from 'valibot';
import { type Argument, dropdown, dynamicDropdown, dynamicMultiSelect, text } from '../sdk/index.js';

const openClosed = [
  { label: 'Open', value: 'open' },
  { label: 'Closed', value: 'closed' },
] as const;

/**
 * A multi-select that also takes Automatisch's rows (`[{ categoryId: '3' }]`) and text from a
 * variable (`3, 4`), so that flows made there keep working.
 */
const idList = <A extends Argument<unknown, string>>(argument: A, rowKey: string): A => {
  const rows = (value: unknown): unknown => {
    if (typeof value === 'string')
      return value
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== '');
    if (!Array.isArray(value)) return value;
    return value
      .map((item) => (typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[rowKey] : item))
      .filter((id) => id !== undefined && id !== null && id !== '');
  };
  return { ...argument, schema: v.pipe(v.unknown(), v.transform(rows), argument.schema) as A['schema'] };
};

/** The fields of a post, with Automatisch's keys; `title` is required when creating. */
export const postArguments = {
  title: text({ label: 'Title', required: true, acceptsVariables: true }),
  content: text({ label: 'Content', acceptsVariables: true }),
  excerpt: text({ label: 'Excerpt', acceptsVariables: true }),
  password: text({ label: 'Password', description: 'Protects the content and excerpt.', acceptsVariables: true }),
  author: dynamicDropdown({ label: 'Author', dynamicData: 'listUsers', acceptsVariables: true }),
  featuredMedia: dynamicDropdown({ label: 'Featured media', dynamicData: 'listMedia', acceptsVariables: true }),
  commentStatus: dropdown({ label: 'Comment status', options: openClosed }),
  pingStatus: dropdown({ label: 'Ping status', options: openClosed }),
  format: dropdown({
    label: 'Format',
    options: ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'].map(
      (format) => ({ label: format[0]?.toUpperCase() + format.slice(1), value: format }),
    ),
  }),
  sticky: dropdown({
    label: 'Sticky',
    options: [
      { label: 'False', value: 'false' },
      { label: 'True', value: 'true' },
    ],
  }),
  categoryIds: idList(dynamicMultiSelect({ label: 'Categories', dynamicData: 'listCategories' }), 'categoryId'),
  tagIds: idList(dynamicMultiSelect({ label: 'Tags', dynamicData: 'listTags' }), 'tagId'),
  status: dynamicDropdown({ label: 'Status', dynamicData: 'listStatuses', acceptsVariables: true }),
  date: text({ label: 'Date', description: "Publication date in the site's time zone.", acceptsVariables: true }),
};

type PostParameters = {
  readonly [K in keyof typeof postArguments]?: (typeof postArguments)[K] extends Argument<infer T, string> ? T : never;
};

const idOf = (value: string | undefined) => (value === undefined ? undefined : Number(value));

/** The REST API's post fields; what was not given is left out (an update keeps it). */
export const postBody = (p: PostParameters) => ({
  title: p.title,
  content: p.content,
  excerpt: p.excerpt,
  password: p.password,
  author: idOf(p.author),
  featured_media: idOf(p.featuredMedia),
  comment_status: p.commentStatus,
  ping_status: p.pingStatus,
  format: p.format,
  sticky: p.sticky === undefined ? undefined : p.sticky === 'true',
  categories: p.categoryIds?.length ? p.categoryIds.map(Number) : undefined,
  tags: p.tagIds?.length ? p.tagIds.map(Number) : undefined,
  status: p.status,
  date: p.date,
});
