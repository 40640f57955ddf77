import type { Argument } from '../../types';

/**
 * Which editor an argument gets. The app SDK's types (adapters/apps/sdk/arguments.ts) are
 * `string`, `number`, `boolean`, `dropdown`, `keyValueList`, `code` (with a `language`) and `json`;
 * long text is a `string` the app names as a body, a message or a prompt.
 *
 * - `input`: a plain input (no variables, or a secret, which is never shown back).
 * - `line`: one line of text with variables as chips.
 * - `text`: several lines of prose with chips.
 * - `body`: a request body: several lines, line numbers, JSON highlighting and checking whenever
 *   the text starts as a JSON object or array.
 * - `json`: JSON always (line numbers, highlighting, checking).
 * - `code`: source in the argument's language (line numbers, highlighting).
 */
export type EditorKind = 'input' | 'line' | 'text' | 'body' | 'json' | 'code';

const BODY_KEYS = /^(body|data|payload|requestBody)$/;
const BODY_LABELS = /^(request )?(body|payload)$/i;

const LONG_KEYS =
  /^(body|message|text|textContent|content|htmlContent|html|markdown|description|taskDescription|notes?|comment|prompt|systemPrompt|instructions|sql|signature)$/i;
const LONG_LABELS = /\b(body|message|text|comment|content|prompt|instructions|html|markdown|notes?|description|sql)\b/i;
/** Words that make a field short whatever else it says: "Message ID", "Body type", "Body is HTML". */
const SHORT_LABELS = /\b(id|ids|name|address|url|type|is|subject)\b/i;

/** Text the app means to be long, by the words it names the argument with. */
export const isLongText = (argument: Pick<Argument, 'key' | 'label'>) =>
  (LONG_KEYS.test(argument.key) || LONG_LABELS.test(argument.label)) && !SHORT_LABELS.test(argument.label);

export const editorKindOf = (argument: Argument): EditorKind => {
  if (argument.type === 'code') return 'code';
  if (argument.type === 'json') return 'json';
  if (argument.secret || (argument.type !== 'string' && argument.type !== 'number')) return 'input';
  if (argument.type === 'string' && BODY_KEYS.test(argument.key) && BODY_LABELS.test(argument.label)) return 'body';
  if (argument.type === 'string' && isLongText(argument)) return 'text';
  return argument.acceptsVariables ? 'line' : 'input';
};

/** The kinds edited on several lines. */
export const isMultiLine = (kind: EditorKind) =>
  kind === 'text' || kind === 'body' || kind === 'json' || kind === 'code';
