import { draftText, driveArgument, driveRoot, graphPages } from '../microsoft-common/index.js';
import { type DraftContext, type DynamicOption, dynamicDropdown, type HttpClient, segment } from '../sdk/index.js';

export const driveId = driveArgument('workbook');

export const workbookId = dynamicDropdown({
  label: 'Workbook',
  required: true,
  description: 'An Excel workbook (.xlsx) in the drive.',
  dynamicData: 'listWorkbooks',
  dependsOn: ['driveId'],
});

export const worksheetId = dynamicDropdown({
  label: 'Worksheet',
  required: true,
  dynamicData: 'listWorksheets',
  dependsOn: ['driveId', 'workbookId'],
});

export const tableId = dynamicDropdown({
  label: 'Table',
  required: true,
  dynamicData: 'listTables',
  dependsOn: ['driveId', 'workbookId'],
});

/** A workbook's API in Graph: `/me/drive/items/{id}/workbook`, or a shared library's. */
export const workbookPath = (parameters: { readonly driveId?: string | undefined; readonly workbookId: string }) =>
  `${driveRoot(parameters.driveId)}/items/${segment(parameters.workbookId)}/workbook`;

interface Named {
  readonly id: string;
  readonly name?: string;
}

export interface TableColumn {
  readonly id?: string;
  readonly name: string;
  readonly index: number;
}

/** A table's columns in their order (their names are the header row). */
export const tableColumns = async (http: HttpClient, workbook: string, table: string): Promise<TableColumn[]> => {
  const columns = await graphPages<TableColumn>(http, {
    path: `${workbook}/tables/${segment(table)}/columns`,
    query: { $select: 'id,name,index' },
  });
  return columns.sort((a, b) => a.index - b.index);
};

const draftWorkbook = (ctx: DraftContext) => {
  const workbook = draftText(ctx.parameters.workbookId);
  return workbook ? workbookPath({ driveId: draftText(ctx.parameters.driveId), workbookId: workbook }) : null;
};

const options = (entries: readonly Named[]): DynamicOption[] =>
  entries.map((entry) => ({ name: entry.name ?? entry.id, value: entry.id }));

/** Dynamic data `listWorkbooks`: the drive's Excel workbooks, found by Graph's search. */
export const listWorkbooks = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const found = await graphPages<Named & { readonly file?: unknown }>(ctx.http, {
    path: `${driveRoot(draftText(ctx.parameters.driveId))}/root/search(q='.xlsx')`,
    query: { $select: 'id,name,file', $top: 200 },
  });
  return options(found.filter((item) => item.file !== undefined && /\.xls[xm]$/i.test(item.name ?? '')));
};

/** Dynamic data `listWorksheets`: the workbook's worksheets, in their order. */
export const listWorksheets = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const workbook = draftWorkbook(ctx);
  return workbook ? options(await graphPages<Named>(ctx.http, { path: `${workbook}/worksheets` })) : [];
};

/** Dynamic data `listTables`: the workbook's tables. */
export const listTables = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const workbook = draftWorkbook(ctx);
  return workbook ? options(await graphPages<Named>(ctx.http, { path: `${workbook}/tables` })) : [];
};
