import { defineTrigger, dynamicDropdown, paginate } from '../sdk/index.js';
import { type AirtableRecord, byOffset, recordsPath } from './api.js';
import { baseId, tableId } from './arguments.js';

const newestFirst = (records: AirtableRecord[]) => records.sort((a, b) => b.createdTime.localeCompare(a.createdTime));

/** How far before the last poll a poll looks again: records committed late still come. */
const MARGIN_MS = 10 * 60 * 1000;
const FIRST_LOOK_MS = 60 * 60 * 1000;

export const newRecord = defineTrigger({
  key: 'newRecord',
  name: 'New record',
  description: 'Starts the flow for each record created in a table.',
  type: 'polling',
  arguments: { baseId, tableId },
  async run(ctx) {
    const { baseId: base, tableId: table } = ctx.parameters;
    const key = `airtable:since:${base}/${table}`;
    const now = Date.now();
    const since = Number((await ctx.store.get(key)) ?? now - FIRST_LOOK_MS) - MARGIN_MS;
    // Airtable filters by creation time itself; the ids dedupe what the margin reads twice.
    const records = await paginate<AirtableRecord>(
      ctx.http,
      {
        path: recordsPath(base, table),
        query: {
          filterByFormula: `IS_AFTER(CREATED_TIME(), DATETIME_PARSE('${new Date(since).toISOString()}'))`,
          pageSize: 100,
        },
      },
      byOffset('records'),
    );
    await ctx.store.set(key, now);
    return newestFirst(records).map((record) => ({ id: record.id, data: record }));
  },
});

export const newRecordInView = defineTrigger({
  key: 'newRecordInView',
  name: 'New record in view',
  description: 'Starts the flow for each record that enters a view (created there, or now matching its filters).',
  type: 'polling',
  arguments: {
    baseId,
    tableId,
    viewId: dynamicDropdown({
      label: 'View',
      required: true,
      dynamicData: 'listTableViews',
      dependsOn: ['baseId', 'tableId'],
    }),
  },
  async run(ctx) {
    const { baseId: base, tableId: table, viewId } = ctx.parameters;
    const records = await paginate<AirtableRecord>(
      ctx.http,
      { path: recordsPath(base, table), query: { view: viewId, pageSize: 100 } },
      byOffset('records'),
    );
    return newestFirst(records).map((record) => ({ id: record.id, data: record }));
  },
});
