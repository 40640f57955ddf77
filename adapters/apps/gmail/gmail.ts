import { type HttpClient, segment } from '../sdk/index.js';

/** Gmail's user id for the signed-in account. */
export const ME = '/gmail/v1/users/me';

export interface GmailHeader {
  readonly name: string;
  readonly value: string;
}

export interface GmailMessage {
  readonly id: string;
  readonly threadId?: string;
  readonly labelIds?: readonly string[];
  readonly payload?: { readonly headers?: readonly GmailHeader[] };
  readonly [field: string]: unknown;
}

export const headerOf = (message: GmailMessage | undefined, name: string): string | undefined =>
  message?.payload?.headers?.find((header) => header.name.toLowerCase() === name.toLowerCase())?.value;

/** Runs `work` over the entries, `limit` at a time (Gmail refuses too many concurrent requests per user). */
export const mapLimited = async <T, R>(entries: readonly T[], limit: number, work: (entry: T) => Promise<R>) => {
  const results: R[] = [];
  for (let start = 0; start < entries.length; start += limit) {
    results.push(...(await Promise.all(entries.slice(start, start + limit).map(work))));
  }
  return results;
};

/** Messages by id, in the order given; `metadata` with some headers, or the `full` message. */
export const getMessages = (
  http: HttpClient,
  ids: readonly string[],
  format: { readonly metadataHeaders: readonly string[] } | 'full',
) =>
  mapLimited(ids, 10, async (id) => {
    const query =
      format === 'full'
        ? { format: 'full' }
        : { format: 'metadata', metadataHeaders: format.metadataHeaders.join(',') };
    return (await http.request<GmailMessage>({ path: `${ME}/messages/${segment(id)}`, query })).data;
  });
