import { parser } from '@lezer/json';
import { PLACEHOLDER } from './template';

/** A JSON syntax error: where it is (an offset into the text), and what it says with its line and column. */
export interface JsonProblem {
  readonly from: number;
  readonly message: string;
}

/**
 * The text with each variable replaced by something of the same length that is valid where it
 * stands: letters inside a string, `0` and spaces outside one (it becomes a value when it runs).
 * Offsets stay those of the text, so that an error points at what the user typed.
 */
export const masked = (text: string) => {
  let out = '';
  let at = 0;
  let inString = false;
  const scan = (until: number) => {
    for (let i = at; i < until; i++) {
      const c = text[i];
      if (c === '\\' && inString) {
        i++;
        continue;
      }
      if (c === '"') inString = !inString;
    }
  };
  for (const match of text.matchAll(PLACEHOLDER)) {
    scan(match.index);
    out += text.slice(at, match.index);
    out += inString ? 'x'.repeat(match[0].length) : `0${' '.repeat(match[0].length - 1)}`;
    at = match.index + match[0].length;
  }
  return out + text.slice(at);
};

/** The first place the JSON grammar cannot read, for messages that do not give one. */
const firstErrorAt = (text: string): number => {
  let found = text.length;
  parser.parse(text).iterate({
    enter: (node) => {
      if (found !== text.length) return false;
      if (node.type.isError) found = node.from;
      return undefined;
    },
  });
  return found;
};

const lineAndColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
};

/** V8's message without its own position or the quoted text, which the line and column replace. */
const cleaned = (message: string) =>
  message
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/^Unexpected end of JSON input$/, 'The JSON ends too early');

/** Null for valid JSON (variables count as values) and for empty text; else the first error. */
export const jsonProblem = (text: string): JsonProblem | null => {
  if (text.trim() === '') return null;
  const checked = masked(text);
  try {
    JSON.parse(checked);
    return null;
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(said)?.[1];
    const from = Math.min(position === undefined ? firstErrorAt(checked) : Number(position), text.length);
    const { line, column } = lineAndColumn(text, from);
    return { from, message: `JSON syntax error at line ${line}, column ${column}: ${cleaned(said)}.` };
  }
};

/** A text field whose text is JSON when it starts as an object or an array does (an HTTP body). */
export const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);
