import { defineTrigger, dynamicDropdown, type TriggerContext, type TriggerItem } from '../sdk/index.js';
import { apiName, query } from './api.js';

/** Records changed this long before the newest change seen are read again (commits land late). */
const OVERLAP_MS = 5 * 60_000;

/** `FIELDS(ALL)` queries return at most 200 records. */
const LIMIT = 200;

const objectArgument = dynamicDropdown({ label: 'Object', required: true, dynamicData: 'listObjects', check: apiName });

type SfRecord = Record<string, unknown> & { readonly Id: string };

/** SOQL datetime literals are unquoted ISO 8601 in UTC. */
const soqlDateTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The latest records by a date field, newest first: those dated since the newest one the flow saw
 * (less an overlap; repeats are skipped by id). The first poll learns the latest 200.
 */
const pollBy = async (
  ctx: TriggerContext<unknown>,
  object: string,
  dateField: 'CreatedDate' | 'LastModifiedDate',
  idOf: (record: SfRecord) => string,
): Promise<TriggerItem[]> => {
  const storeKey = `salesforce:${object}:${dateField}`;
  const stored = await ctx.store.get(storeKey);
  const since = typeof stored === 'number' ? stored : null;
  const where = since === null ? '' : ` WHERE ${dateField} >= ${soqlDateTime(since - OVERLAP_MS)}`;
  const { records } = await query<SfRecord>(
    ctx.http,
    `SELECT FIELDS(ALL) FROM ${object}${where} ORDER BY ${dateField} DESC LIMIT ${LIMIT}`,
  );
  const dates = records.map((record) => Date.parse(String(record[dateField]))).filter(Number.isFinite);
  const newest = Math.max(since ?? 0, ...dates);
  if (newest > 0) await ctx.store.set(storeKey, newest);
  return records.map((record) => ({ id: idOf(record), data: record }));
};

export const updatedFieldInRecords = defineTrigger({
  key: 'updatedFieldInRecords',
  name: 'Updated field in records',
  description: 'Starts the flow when a field of a record takes a new value.',
  type: 'polling',
  arguments: {
    object: objectArgument,
    field: dynamicDropdown({
      label: 'Field',
      required: true,
      dynamicData: 'listFields',
      dependsOn: ['object'],
      description: 'Track updates by this field',
      check: apiName,
    }),
  },
  // The record and the field's value make the id: another value is another run (Automatisch's id).
  run: (ctx) =>
    pollBy(
      ctx,
      ctx.parameters.object,
      'LastModifiedDate',
      (record) => `${record.Id}-${String(record[ctx.parameters.field])}`,
    ),
});

export const newRecords = defineTrigger({
  key: 'newRecords',
  name: 'New records',
  description: 'Starts the flow for each new record of an object.',
  type: 'polling',
  arguments: { object: objectArgument },
  run: (ctx) => pollBy(ctx, ctx.parameters.object, 'CreatedDate', (record) => record.Id),
});
