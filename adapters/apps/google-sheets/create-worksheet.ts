import { textList } from '../google-common/index.js';
import { defineAction, dropdown, text } from '../sdk/index.js';
import { drive, spreadsheet } from './arguments.js';
import { addWorksheet } from './worksheets.js';

export const createWorksheet = defineAction({
  key: 'createWorksheet',
  name: 'Create worksheet',
  description: 'Create a blank worksheet with a title. Optionally, provide headers.',
  arguments: {
    driveId: drive,
    spreadsheetId: spreadsheet,
    title: text({ label: 'Title', required: true, acceptsVariables: true }),
    headers: textList({ label: 'Headers', description: 'Separate them with commas.', rowKey: 'header' }),
    overwrite: dropdown({
      label: 'Overwrite',
      description:
        'If a worksheet with the specified title exists, its content would be lost. Please, use with caution.',
      default: 'false',
      options: [
        { label: 'Yes', value: 'true' },
        { label: 'No', value: 'false' },
      ],
    }),
  },
  run: (ctx) =>
    addWorksheet(ctx.http, ctx.parameters.spreadsheetId, {
      title: ctx.parameters.title,
      headers: ctx.parameters.headers,
      replace: ctx.parameters.overwrite === 'true',
    }),
});
