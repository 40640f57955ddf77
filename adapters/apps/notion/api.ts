import type { HttpClient } from '../sdk/index.js';

/** A Notion list answer: `{ results, next_cursor, has_more }`. */
interface NotionList<T> {
  readonly results: T[];
  readonly next_cursor?: string | null;
  readonly has_more?: boolean;
}

/**
 * Every page of a Notion list that is a POST (search, database queries): the cursor travels in
 * the body as `start_cursor`, 100 entries a page, up to `maxPages`.
 */
export const notionPages = async <T>(
  http: HttpClient,
  path: string,
  body: Readonly<Record<string, unknown>>,
  { maxPages = 20 } = {},
): Promise<T[]> => {
  const collected: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const { data } = await http.request<NotionList<T>>({
      method: 'POST',
      path,
      body: { ...body, page_size: 100, ...(cursor && { start_cursor: cursor }) },
    });
    collected.push(...data.results);
    if (!data.has_more || !data.next_cursor) break;
    cursor = data.next_cursor;
  }
  return collected;
};

export type RichText = { plain_text?: string }[];
export type Property = { type: string; title?: RichText; [key: string]: unknown };
export type Page = { id: string; properties?: Record<string, Property>; [key: string]: unknown };
export type Database = {
  id: string;
  title?: RichText;
  properties: Record<
    string,
    { type: string; select?: { options: { name: string }[] }; multi_select?: { options: { name: string }[] } }
  >;
};

export const plainText = (text: RichText | undefined) => (text ?? []).map((part) => part.plain_text ?? '').join('');

/** The rich text Notion takes: one run of plain text, cut at Notion's 2,000 characters. */
export const richText = (content: string) => [{ type: 'text', text: { content: content.slice(0, 2000) } }];

export const paragraph = (content: string) => ({
  object: 'block',
  type: 'paragraph',
  paragraph: { rich_text: richText(content) },
});

export const getDatabase = async (http: HttpClient, id: string) =>
  (await http.request<Database>({ path: `/databases/${encodeURIComponent(id)}` })).data;

/** A database's title property: every database has exactly one, whatever its name. */
export const titleProperty = (database: Database) =>
  Object.entries(database.properties).find(([, property]) => property.type === 'title')?.[0] ?? 'Name';

/** A page's title, from whichever property is its title. */
export const pageTitle = (page: Page) => {
  const title = Object.values(page.properties ?? {}).find((property) => property.type === 'title');
  return plainText(title?.title);
};
