import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';

/** One entry of an RSS or Atom feed, as the trigger hands it to the flow. */
export interface FeedItem {
  /** Stable across polls: the guid (RSS) or id (Atom), else the link, else a hash of the content. */
  readonly id: string;
  readonly title: string | null;
  readonly link: string | null;
  readonly description: string | null;
  readonly content: string | null;
  /** ISO 8601, or null when the feed gives no date the item can be placed by. */
  readonly published: string | null;
  readonly author: string | null;
  readonly categories: readonly string[];
}

const LISTS = new Set([
  'rss.channel.item',
  'rss.channel.item.category',
  'rdf:RDF.item',
  'feed.entry',
  'feed.entry.link',
  'feed.entry.category',
  'feed.entry.author',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  // Ids such as `00123` must stay text.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (_name, path) => LISTS.has(String(path)),
  // Feeds use HTML character references (&#8217;, &nbsp;). Entities a feed declares itself are
  // bounded, so that nested declarations cannot expand into gigabytes; external ones are refused.
  htmlEntities: true,
  processEntities: {
    enabled: true,
    maxEntityCount: 100,
    maxEntitySize: 10_000,
    maxExpansionDepth: 5,
    maxTotalExpansions: 10_000,
    maxExpandedLength: 1_000_000,
  },
});

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of an element, whether it is plain, has attributes (`{#text, @_type}`) or repeats. */
const textOf = (value: unknown): string | null => {
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return isNode(value) ? textOf(value['#text']) : null;
};

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

const dateOf = (...values: unknown[]): string | null => {
  for (const value of values) {
    const text = textOf(value);
    const time = text === null ? Number.NaN : Date.parse(text);
    if (!Number.isNaN(time)) return new Date(time).toISOString();
  }
  return null;
};

const fallbackId = (parts: readonly (string | null)[]) =>
  `sha256:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;

const rssItem = (item: Node): FeedItem => {
  const title = textOf(item.title);
  const link = textOf(item.link);
  const description = textOf(item.description);
  const published = dateOf(item.pubDate, item['dc:date']);
  return {
    id: textOf(item.guid) ?? link ?? fallbackId([title, description, published]),
    title,
    link,
    description,
    content: textOf(item['content:encoded']),
    published,
    author: textOf(item.author) ?? textOf(item['dc:creator']),
    categories: listOf(item.category).flatMap((c) => textOf(c) ?? []),
  };
};

/** The `alternate` link (Atom's default relation) is the entry's page. */
const atomLink = (links: unknown): string | null => {
  const all = listOf(links).filter(isNode);
  const page = all.find((l) => l['@_rel'] === undefined || l['@_rel'] === 'alternate') ?? all[0];
  return page ? textOf(page['@_href']) : null;
};

const atomEntry = (entry: Node): FeedItem => {
  const title = textOf(entry.title);
  const link = atomLink(entry.link);
  const description = textOf(entry.summary);
  const published = dateOf(entry.published, entry.updated);
  const author = listOf(entry.author).find(isNode);
  return {
    id: textOf(entry.id) ?? link ?? fallbackId([title, description, published]),
    title,
    link,
    description,
    content: textOf(entry.content),
    published,
    author: author ? textOf(author.name) : null,
    categories: listOf(entry.category).flatMap((c) => (isNode(c) ? (textOf(c['@_term']) ?? []) : [])),
  };
};

/** Newest first when every item is dated; otherwise the feed's own order, which is usually newest first. */
const newestFirst = (items: FeedItem[]): FeedItem[] =>
  items.every((i) => i.published !== null)
    ? items.sort((a, b) => (b.published ?? '').localeCompare(a.published ?? ''))
    : items;

/** Reads RSS 2.0 (and 0.9x), RSS 1.0 (RDF) and Atom; throws for anything else. */
export const parseFeed = (xml: string): FeedItem[] => {
  let document: Node;
  try {
    document = parser.parse(xml) as Node;
  } catch (error) {
    throw new Error(`The feed is not well-formed XML: ${(error as Error).message}`);
  }
  const rss = document.rss;
  if (isNode(rss))
    return newestFirst(
      listOf(isNode(rss.channel) ? rss.channel.item : [])
        .filter(isNode)
        .map(rssItem),
    );
  const rdf = document['rdf:RDF'];
  if (isNode(rdf)) return newestFirst(listOf(rdf.item).filter(isNode).map(rssItem));
  const atom = document.feed;
  if (isNode(atom)) return newestFirst(listOf(atom.entry).filter(isNode).map(atomEntry));
  throw new Error('The document is not an RSS or Atom feed.');
};
