import { randomUUID } from 'node:crypto';
import { Marked } from 'marked';
import pluralize from 'pluralize';
import TurndownService from 'turndown';
import { text } from '../sdk/index.js';
import { defineTransform, transformAction } from './transform.js';

interface Base {
  readonly input: string | undefined;
}

/** A transform of the input alone; a missing input is the empty text. */
const ofInput = (label: string, run: (input: string) => unknown) =>
  defineTransform<Record<string, never>, Base>({ label, fields: {}, run: (_fields, base) => run(base.input ?? '') });

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
// An instance of its own, so that no other code configuring the global `marked` changes the output.
const markdown = new Marked({ gfm: true });

const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[a-z\d](?:[a-z\d-]*[a-z\d])?(?:\.[a-z\d](?:[a-z\d-]*[a-z\d])?)+/i;
/** `1,234.5` (with thousands commas) or `-12.75` / `.5`. */
const NUMBER = /-?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*\.?\d+)/;

const capitalize = (input: string) =>
  input.replace(/\p{L}[\p{L}\p{M}'’]*/gu, (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());

const parseJson = (input: string): unknown => {
  try {
    return JSON.parse(input);
  } catch (error) {
    throw new Error(`The input is not valid JSON: ${(error as Error).message}`);
  }
};

export const { action: textAction, fields: textFields } = transformAction({
  key: 'text',
  name: 'Text',
  description: 'Changes text: case, replacements, extraction, encodings, Markdown and HTML, and more.',
  dynamicFieldsKey: 'textFields',
  arguments: { input: text({ label: 'Input', acceptsVariables: true, description: 'The text to transform.' }) },
  transforms: {
    lowercase: ofInput('Lowercase', (input) => input.toLowerCase()),
    uppercase: ofInput('Uppercase', (input) => input.toUpperCase()),
    capitalize: ofInput('Capitalize every word', capitalize),
    trimWhitespace: ofInput('Trim whitespace', (input) => input.trim()),
    replace: defineTransform({
      label: 'Replace',
      fields: {
        find: text({ label: 'Find', required: true, acceptsVariables: true, description: 'Text to look for.' }),
        replace: text({ label: 'Replace with', acceptsVariables: true, description: 'Empty removes what was found.' }),
      },
      run: (fields, base: Base) => (base.input ?? '').replaceAll(fields.find, fields.replace ?? ''),
    }),
    extractEmailAddress: ofInput('Extract email address', (input) => input.match(EMAIL)?.[0] ?? null),
    extractNumber: ofInput('Extract number', (input) => {
      const found = input.match(NUMBER)?.[0];
      return found === undefined ? null : Number(found.replaceAll(',', ''));
    }),
    stringToBase64: ofInput('Text to Base64', (input) => Buffer.from(input, 'utf8').toString('base64')),
    base64ToString: ofInput('Base64 to text', (input) => Buffer.from(input, 'base64').toString('utf8')),
    encodeUriComponent: ofInput('Encode URI component', (input) => encodeURIComponent(input)),
    htmlToMarkdown: ofInput('HTML to Markdown', (input) => turndown.turndown(input)),
    markdownToHtml: ofInput('Markdown to HTML', (input) => markdown.parse(input, { async: false })),
    useDefaultValue: defineTransform({
      label: 'Use a default value',
      fields: {
        defaultValue: text({
          label: 'Default value',
          required: true,
          acceptsVariables: true,
          description: 'The output when the input is empty.',
        }),
      },
      run: (fields, base: Base) =>
        base.input === undefined || base.input.trim() === '' ? fields.defaultValue : base.input,
    }),
    parseStringifiedJson: ofInput('Parse JSON text', parseJson),
    createUuid: ofInput('Create a UUID', () => randomUUID()),
    pluralize: ofInput('Pluralize', (input) => pluralize(input)),
  },
});
