import { type ChoiceGroup, pathLabel, RUN_TITLE, sampleText } from '../variables';

/**
 * The engine's placeholder (core/domain/templating.ts, which the console may not import): what it
 * replaces is exactly what the editor shows as a chip, so that a chip never hides text the engine
 * would leave as it is, nor the other way round.
 */
export const PLACEHOLDER = /\{\{\s*(?:step\.([0-9A-Za-z-]+)|(execution))((?:\.[^.{}[\]\s]+|\[\d+\])*)\s*\}\}/g;

/** A stretch of a template: text as typed, or one variable (`text` is its placeholder as written). */
export type Segment =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'variable';
      readonly text: string;
      /** The step it reads, or null for the run's own values (`{{execution.…}}`). */
      readonly stepId: string | null;
      /** The dotted path after the step id (or after `execution`), without its leading dot. */
      readonly path: string;
    };

/** Cuts a template into its text and its variables; joining their `text` gives the template back. */
export const segmentsOf = (template: string): Segment[] => {
  const segments: Segment[] = [];
  let at = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const start = match.index;
    if (start > at) segments.push({ kind: 'text', text: template.slice(at, start) });
    segments.push({
      kind: 'variable',
      text: match[0],
      stepId: match[1] ?? null,
      path: (match[3] ?? '').replace(/^\./, ''),
    });
    at = start + match[0].length;
  }
  if (at < template.length) segments.push({ kind: 'text', text: template.slice(at) });
  return segments;
};

/** The template the segments spell: what is stored, exactly as before chips. */
export const templateOf = (segments: readonly Segment[]) => segments.map((segment) => segment.text).join('');

/** What a chip shows: its label, the sample value behind it, and whether the console knows its step. */
export interface ChipInfo {
  readonly label: string;
  readonly sample: string;
  readonly known: boolean;
}

type Variable = Extract<Segment, { kind: 'variable' }>;

/** The placeholder in the one spelling the picker inserts (no spaces, `[0]` as `.0`). */
const canonical = (variable: Variable) => {
  const path = variable.path.replace(/\[(\d+)\]/g, '.$1');
  return variable.stepId === null ? `{{execution.${path}}}` : `{{step.${variable.stepId}.${path}}}`;
};

const own = (value: unknown, segment: string): unknown =>
  value !== null && typeof value === 'object' && Object.hasOwn(value, segment)
    ? (value as Record<string, unknown>)[segment]
    : undefined;

const NO_SAMPLE = 'no sample yet: test that step to see one';

/**
 * How a variable reads, from the picker's groups (`choicesFor`): `2. Formatter › output` and its
 * sample from that step's last test output. A variable of a step that is not before this one (moved
 * or deleted) still shows, flagged, so that the user sees it and can remove it.
 */
export const describeVariable = (variable: Variable, groups: readonly ChoiceGroup[]): ChipInfo => {
  const text = canonical(variable);
  for (const group of groups) {
    const choice = group.choices.find((c) => c.text === text);
    if (choice) return { label: choice.label, sample: choice.sample, known: true };
  }
  if (variable.stepId === null) {
    return { label: `${RUN_TITLE} › ${pathLabel(variable.path)}`, sample: 'known when the flow runs', known: true };
  }
  const step = groups.find((group) => group.step?.id === variable.stepId)?.step;
  if (!step) {
    return {
      label: `Unknown step › ${pathLabel(variable.path)}`,
      sample: 'this step is not before this one: the variable will be empty',
      known: false,
    };
  }
  const value = variable.path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '')
    .reduce<unknown>(own, step.sample);
  return {
    label: `${step.title} › ${pathLabel(variable.path)}`,
    sample: step.sample == null ? NO_SAMPLE : value === undefined ? 'not in the last sample' : sampleText(value),
    known: true,
  };
};

/** A template as a sentence shows it: each variable by its label (`1. Webhook › body › kind`), not its step's id. */
export const readableTemplate = (template: string, groups: readonly ChoiceGroup[]) =>
  segmentsOf(template)
    .map((segment) => (segment.kind === 'variable' ? describeVariable(segment, groups).label : segment.text))
    .join('');
