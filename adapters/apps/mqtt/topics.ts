/** MQTT topic names and filters (MQTT 5 §4.7). */

const MAX_TOPIC_BYTES = 65_535;

const basics = (topic: string): string | null => {
  if (topic === '') return 'must not be empty.';
  if (topic.includes('\0')) return 'must not contain a NUL character.';
  if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return 'is too long (at most 65535 bytes).';
  return null;
};

/** A topic to publish to: no wildcards. A message when it is not one, else null. */
export const topicNameProblem = (topic: string): string | null =>
  basics(topic) ?? (/[+#]/.test(topic) ? 'must not contain the wildcards + or # (publish to one topic).' : null);

/**
 * A topic filter to subscribe to: `+` stands for one whole level, `#` for the rest and only as the
 * last level (`sensors/+/temperature`, `sensors/#`); `$share/<group>/<filter>` shares a subscription.
 */
export const topicFilterProblem = (filter: string): string | null => {
  const basic = basics(filter);
  if (basic) return basic;
  const levels = filter.split('/');
  for (const [i, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1))
      return 'may use # only as the whole last level (sensors/#).';
    if (level.includes('+') && level !== '+') return 'may use + only as a whole level (sensors/+/temperature).';
  }
  return null;
};
