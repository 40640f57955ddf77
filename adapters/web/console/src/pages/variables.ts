import type { Step } from '../types';

export interface Variable {
  readonly path: string;
  readonly preview: string;
}

const MAX_DEPTH = 5;
const MAX_ITEMS = 3;

const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** Every leaf path of a sample output (dot paths, numeric segments for arrays), as the templating reads them. */
export const variablesOf = (value: unknown, prefix = '', depth = 0): Variable[] => {
  if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) {
    const entries = Array.isArray(value)
      ? value.slice(0, MAX_ITEMS).map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    const nested = entries.flatMap(([key, item]) => variablesOf(item, prefix ? `${prefix}.${key}` : key, depth + 1));
    if (nested.length) return nested;
  }
  return prefix ? [{ path: prefix, preview: preview(value) }] : [];
};

export const reference = (step: Pick<Step, 'id'>, path: string) => `{{step.${step.id}.${path}}}`;

/** One choice of the variable picker: the text it inserts, the path it shows, a preview. */
export interface Choice {
  readonly text: string;
  readonly path: string;
  readonly preview: string;
}

export interface ChoiceGroup {
  readonly title: string;
  readonly choices: readonly Choice[];
}

const sampleOf = (step: Step): unknown => step.lastExecutionStep?.dataOut;

/** The first item a loop's sample output went through (`{ items, count }`), if any. */
const firstItemOf = (loop: Step): unknown => {
  const sample = sampleOf(loop);
  const items = sample !== null && typeof sample === 'object' ? (sample as { items?: unknown }).items : undefined;
  return Array.isArray(items) ? items[0] : undefined;
};

const stepTitle = (step: Step) => `${step.position}. ${step.name ?? step.key ?? step.appKey ?? 'Step'}`;

/**
 * What a step may insert: each earlier step's sample output; for a loop it runs in, the current
 * item (with the first sample item's fields) and index; for a loop before it, its results; and
 * the run's resume URL, which any step may hand on.
 */
export const choicesFor = (previousSteps: readonly Step[], loopsAround: ReadonlySet<string>): ChoiceGroup[] => {
  const groups: ChoiceGroup[] = [];
  const choice = (step: Step, path: string, preview: string): Choice => ({
    text: reference(step, path),
    path,
    preview,
  });
  for (const step of previousSteps) {
    if (step.structuralType === 'loop') {
      if (loopsAround.has(step.id)) {
        const item = firstItemOf(step);
        const fields = item !== null && typeof item === 'object' ? variablesOf(item, 'item') : [];
        groups.push({
          title: `${stepTitle(step)}: the current item`,
          choices: [
            choice(step, 'item', item === undefined ? 'the item of this iteration' : preview(item)),
            ...fields.map((v) => choice(step, v.path, v.preview)),
            choice(step, 'index', 'its position, from 0'),
          ],
        });
      } else {
        groups.push({
          title: `${stepTitle(step)}: after the loop`,
          choices: [choice(step, 'results', "each iteration's outputs, in order")],
        });
      }
      continue;
    }
    const sample = sampleOf(step);
    if (sample == null) continue;
    groups.push({
      title: stepTitle(step),
      choices: variablesOf(sample).map((v) => choice(step, v.path, v.preview)),
    });
  }
  groups.push({
    title: 'This run',
    choices: [
      {
        text: '{{execution.resumeUrl}}',
        path: 'execution.resumeUrl',
        preview: 'where a request, an approval or a form reaches this run',
      },
    ],
  });
  return groups;
};
