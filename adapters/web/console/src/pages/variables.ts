import type { Step } from '../types';

export interface Variable {
  readonly path: string;
  readonly preview: string;
  /** The sample value in full (up to `SAMPLE_LENGTH`), for a variable's tooltip. */
  readonly sample: string;
}

const MAX_DEPTH = 5;
const MAX_ITEMS = 3;

const SAMPLE_LENGTH = 200;

const clipped = (value: unknown, length: number) => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
};

const preview = (value: unknown) => clipped(value, 40);

/** A sample value as a variable's tooltip shows it. */
export const sampleText = (value: unknown) => clipped(value, SAMPLE_LENGTH);

/** Every leaf path of a sample output (dot paths, numeric segments for arrays), as the templating reads them. */
export const variablesOf = (value: unknown, prefix = '', depth = 0): Variable[] => {
  if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) {
    const entries = Array.isArray(value)
      ? value.slice(0, MAX_ITEMS).map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    const nested = entries.flatMap(([key, item]) => variablesOf(item, prefix ? `${prefix}.${key}` : key, depth + 1));
    if (nested.length) return nested;
  }
  return prefix ? [{ path: prefix, preview: preview(value), sample: sampleText(value) }] : [];
};

export const reference = (step: Pick<Step, 'id'>, path: string) => `{{step.${step.id}.${path}}}`;

/**
 * One choice of the variable picker: the text it inserts, the path it shows, a preview; the label
 * its chip reads (`2. Formatter › output`) and the sample value it shows on hover and focus.
 */
export interface Choice {
  readonly text: string;
  readonly path: string;
  readonly preview: string;
  readonly label: string;
  readonly sample: string;
}

export interface ChoiceGroup {
  readonly title: string;
  readonly choices: readonly Choice[];
  /**
   * The earlier step the group's variables read, with its sample output: a chip names a variable
   * of it by its title even when the picker has no choice for that path (or no sample at all).
   */
  readonly step?: { readonly id: string; readonly title: string; readonly sample: unknown };
}

/** How a chip reads a path: `body.order.customer` as `body › order › customer`. */
export const pathLabel = (path: string) =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '')
    .join(' › ');

export const RUN_TITLE = 'This run';

const sampleOf = (step: Step): unknown => step.lastExecutionStep?.dataOut;

/** The first item a loop's sample output went through (`{ items, count }`), if any. */
const firstItemOf = (loop: Step): unknown => {
  const sample = sampleOf(loop);
  const items = sample !== null && typeof sample === 'object' ? (sample as { items?: unknown }).items : undefined;
  return Array.isArray(items) ? items[0] : undefined;
};

/** An event's key as words (`catchRawWebhook` → `Catch raw webhook`), for a step not named. */
const spelled = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const stepTitle = (step: Step) =>
  `${step.position}. ${step.name ?? (step.key ? spelled(step.key) : (step.appKey ?? 'Step'))}`;

/**
 * What a step may insert: each earlier step's sample output; for a loop it runs in, the current
 * item (with the first sample item's fields) and index; for a loop before it, its results; and
 * the run's resume URL, which any step may hand on.
 */
export const choicesFor = (previousSteps: readonly Step[], loopsAround: ReadonlySet<string>): ChoiceGroup[] => {
  const groups: ChoiceGroup[] = [];
  const choice = (step: Step, path: string, preview: string, sample = preview): Choice => ({
    text: reference(step, path),
    path,
    preview,
    label: `${stepTitle(step)} › ${pathLabel(path)}`,
    sample,
  });
  const about = (step: Step) => ({ id: step.id, title: stepTitle(step), sample: sampleOf(step) });
  for (const step of previousSteps) {
    if (step.structuralType === 'loop') {
      if (loopsAround.has(step.id)) {
        const item = firstItemOf(step);
        const fields = item !== null && typeof item === 'object' ? variablesOf(item, 'item') : [];
        groups.push({
          title: `${stepTitle(step)}: the current item`,
          step: about(step),
          choices: [
            item === undefined
              ? choice(step, 'item', 'the item of this iteration')
              : choice(step, 'item', preview(item), sampleText(item)),
            ...fields.map((v) => choice(step, v.path, v.preview, v.sample)),
            choice(step, 'index', 'its position, from 0'),
          ],
        });
      } else {
        groups.push({
          title: `${stepTitle(step)}: after the loop`,
          step: about(step),
          choices: [choice(step, 'results', "each iteration's outputs, in order")],
        });
      }
      continue;
    }
    // A step without sample output offers nothing to pick, but its chips still read its title.
    const sample = sampleOf(step);
    groups.push({
      title: stepTitle(step),
      step: about(step),
      choices: sample == null ? [] : variablesOf(sample).map((v) => choice(step, v.path, v.preview, v.sample)),
    });
  }
  const resume = 'where a request, an approval or a form reaches this run';
  groups.push({
    title: RUN_TITLE,
    choices: [
      {
        text: '{{execution.resumeUrl}}',
        path: 'execution.resumeUrl',
        preview: resume,
        label: `${RUN_TITLE} › resume URL`,
        sample: resume,
      },
    ],
  });
  return groups;
};
