/**
 * Stream replies as Redis sends them (RESP2 arrays), turned into entries. Pure, so that the shapes
 * of XREADGROUP, XAUTOCLAIM and XRANGE are tested without a server.
 */

/** One stream entry: its id and its fields, null when it was deleted while still pending. */
export interface StreamEntry {
  readonly id: string;
  readonly fields: Readonly<Record<string, string>> | null;
}

/** What a flow receives for an entry. */
export interface StreamEntryOutput {
  readonly stream: string;
  readonly id: string;
  readonly fields: Readonly<Record<string, string>>;
}

const unexpected = (what: string) => new Error(`Redis answered ${what} in an unexpected shape.`);

/**
 * `[field, value, field, value...]` as an object of text values. Redis allows a field name twice
 * in one entry: the later value wins.
 */
export const fieldsObject = (pairs: readonly unknown[]): Record<string, string> => {
  const fields: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < pairs.length; i += 2) fields[String(pairs[i])] = String(pairs[i + 1]);
  return { ...fields };
};

/** `[[id, [field, value...] | null], ...]`. */
export const parseEntries = (raw: unknown): StreamEntry[] => {
  if (!Array.isArray(raw)) throw unexpected('stream entries');
  return raw.map((item: unknown) => {
    if (!Array.isArray(item) || item.length < 2) throw unexpected('a stream entry');
    const [id, pairs] = item as [unknown, unknown];
    return { id: String(id), fields: Array.isArray(pairs) ? fieldsObject(pairs) : null };
  });
};

/** XREADGROUP (and XREAD) of one stream: its entries; none when the block timed out (null). */
export const parseReadReply = (raw: unknown): StreamEntry[] => {
  if (raw === null) return [];
  if (!Array.isArray(raw)) throw unexpected('XREADGROUP');
  const first = raw[0] as unknown;
  if (first === undefined) return [];
  if (!Array.isArray(first) || first.length < 2) throw unexpected('XREADGROUP');
  return parseEntries(first[1]);
};

/**
 * XAUTOCLAIM: the cursor to go on from (`0-0` once the pending list was gone through) and the
 * entries claimed. Redis 7 also lists ids it dropped because their entries were deleted; 6.2 gives
 * those as entries without fields.
 */
export const parseAutoClaimReply = (raw: unknown): { readonly cursor: string; readonly entries: StreamEntry[] } => {
  if (!Array.isArray(raw) || raw.length < 2) throw unexpected('XAUTOCLAIM');
  return { cursor: String(raw[0]), entries: parseEntries(raw[1]) };
};

/** The engine's id of an entry: stable across redeliveries, and distinct between streams. */
export const messageId = (stream: string, entryId: string) => `${stream}:${entryId}`;

export const entryOutput = (stream: string, entry: StreamEntry): StreamEntryOutput => ({
  stream,
  id: entry.id,
  fields: entry.fields ?? {},
});
