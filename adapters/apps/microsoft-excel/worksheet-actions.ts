import { odataString } from '../microsoft-common/index.js';
import { json, matches, restAction, segment, text } from '../sdk/index.js';
import { driveId, workbookId, workbookPath, worksheetId } from './workbook.js';

export const addWorksheet = restAction({
  key: 'addWorksheet',
  name: 'Add worksheet',
  description: 'Adds a worksheet at the end of a workbook; answers the worksheet.',
  arguments: {
    driveId,
    workbookId,
    name: text({ label: 'Name', required: true, acceptsVariables: true }),
  },
  request: (p) => ({ method: 'POST', path: `${workbookPath(p)}/worksheets/add`, body: { name: p.name } }),
});

/** One cell (`B7`) or a block (`A1:C3`), in A1 notation. */
const A1 = /^\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(:\$?[A-Za-z]{1,3}\$?[0-9]{1,7})?$/;

export const updateRange = restAction({
  key: 'updateRange',
  name: 'Update range',
  description: 'Writes values into a range of a worksheet; answers the range.',
  arguments: {
    driveId,
    workbookId,
    worksheetId,
    address: text({
      label: 'Range',
      required: true,
      placeholder: 'A1:C2',
      acceptsVariables: true,
      check: matches(A1, 'must be a cell or a range in A1 notation (A1:C2).'),
    }),
    values: json({
      label: 'Values',
      required: true,
      description: 'Rows of values, as many as the range has: [["Name", "Total"], ["Ann", 12]]. null keeps a cell.',
      acceptsVariables: true,
    }),
  },
  check: (p) =>
    Array.isArray(p.values) && p.values.every((row) => Array.isArray(row))
      ? null
      : { values: 'must be a list of rows, each a list of values.' },
  request: (p) => ({
    method: 'PATCH',
    path: `${workbookPath(p)}/worksheets/${segment(p.worksheetId)}/range(address=${odataString(p.address)})`,
    body: { values: p.values },
  }),
});
