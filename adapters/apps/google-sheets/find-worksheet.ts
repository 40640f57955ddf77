import { defineAction, dropdown, text } from '../sdk/index.js';
import { drive, spreadsheet } from './arguments.js';
import { headerFields } from './dynamic-fields.js';
import { addWorksheet, worksheetTitled } from './worksheets.js';

export const findWorksheet = defineAction({
  key: 'findWorksheet',
  name: 'Find worksheet',
  description: 'Finds a worksheet by title. Optionally, create a worksheet if none are found.',
  arguments: {
    driveId: drive,
    spreadsheetId: spreadsheet,
    title: text({
      label: 'Title',
      required: true,
      description: 'The worksheet title needs to match exactly, and the search is case-sensitive.',
      acceptsVariables: true,
    }),
    createWorksheet: dropdown({
      label: 'Create worksheet if none are found.',
      default: false,
      options: [
        { label: 'Yes', value: true },
        { label: 'No', value: false },
      ],
    }),
  },
  dynamicFieldsKey: 'listCreateWorksheetFields',
  async run(ctx) {
    const { spreadsheetId, title, createWorksheet } = ctx.parameters;
    const found = await worksheetTitled(ctx.http, spreadsheetId, title);
    if (found) return found;
    if (!createWorksheet) return null;
    // `headers` is the field listCreateWorksheetFields adds when creating is on.
    const { headers } = headerFields(ctx.parameters);
    return addWorksheet(ctx.http, spreadsheetId, { title, headers, replace: false });
  },
});
