import { bodyProblem, headersProblem, statusProblem } from '../../../core/domain/webhook-answer.js';
import { defineAction, keyValueList, number, text } from '../sdk/index.js';

/**
 * The page a visitor sees once the answers are in (Automatisch's arguments): the body, shown as
 * text; a status of 400 or more shows it as a refusal; an `X-Redirect-URL` header (http or https)
 * sends the visitor there instead. It answers the flow's `/sync` webhook address as the webhook
 * app's "Respond with" does.
 */
export const respondWith = defineAction({
  key: 'respondWith',
  name: 'Respond with',
  description: 'The page a form shows once its answers are in: text, or a redirect.',
  arguments: {
    statusCode: number({
      label: 'Status code',
      default: 200,
      integer: true,
      acceptsVariables: true,
      description: 'From 200 to 599.',
      check: statusProblem,
    }),
    headers: keyValueList({
      label: 'Headers',
      acceptsVariables: true,
      description: 'X-Redirect-URL sends the visitor to that address.',
      check: headersProblem,
    }),
    body: text({
      label: 'Body',
      required: true,
      acceptsVariables: true,
      description: 'What the visitor reads, as text.',
    }),
  },
  check: ({ statusCode }) => {
    const problem = bodyProblem(statusCode, true);
    return problem ? { statusCode: problem } : null;
  },
  async run(ctx) {
    const { statusCode, headers = [], body } = ctx.parameters;
    return { statusCode, headers: Object.fromEntries(headers.map((h) => [h.key, h.value])), body };
  },
});
