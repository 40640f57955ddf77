/** How long a run took, or has taken so far (until `now`), in the largest units that say it. */
export const formatDuration = (startedAt: number, finishedAt: number | null, now: number): string => {
  const ms = Math.max(0, (finishedAt ?? now) - startedAt);
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
};

/** A value as one line of JSON, cut at `max` characters with an ellipsis. */
export const previewOf = (value: unknown, max = 80): string => {
  const text = value === undefined ? '' : (JSON.stringify(value) ?? '');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/**
 * What a trigger's record carried that people recognise a run by: a request's `body` (webhooks,
 * forms) when its output has one, else the whole output.
 */
export const payloadOf = (triggerOutput: unknown): unknown =>
  triggerOutput !== null &&
  typeof triggerOutput === 'object' &&
  !Array.isArray(triggerOutput) &&
  'body' in triggerOutput &&
  'headers' in triggerOutput
    ? (triggerOutput as { body: unknown }).body
    : triggerOutput;
