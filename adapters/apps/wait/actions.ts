import { defineAction, dynamicDropdown, number, runOf, text } from '../sdk/index.js';
import { assertCanMail, sendLinks } from './links-mail.js';
import { minutes, startWaiting, waitMore } from './waiting.js';

const timeout = <const R extends boolean>(required: R) =>
  number({
    label: 'Time-out (minutes)',
    required,
    integer: true,
    min: 1,
    max: 525_600,
    acceptsVariables: true,
    description: required
      ? 'The step fails when nothing came in this time (at most a year).'
      : 'The step fails when nothing came in this time (at most a year); empty waits for as long as it takes.',
  });

const recipients = text({
  label: 'Recipients',
  acceptsVariables: true,
  description: 'E-mail addresses, separated by commas, sent the link through the SMTP connection. Empty: no e-mail.',
});

const message = text({ label: 'Message', acceptsVariables: true, description: 'The text of the e-mail.' });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The step's output from the request that reached the resume URL: its JSON or form body, so that
 * its fields are the step's; a body that is no object (text, a list, none) is under `body`.
 */
export const requestOutput = (payload: unknown): Record<string, unknown> => {
  const body = isObject(payload) ? payload.body : undefined;
  return isObject(body) ? body : { body: body ?? null };
};

/** A form's answers: the `form` signal's payload is `{ formId, answers }`, as the form page keeps it. */
export const formOutput = (payload: unknown): Record<string, unknown> => {
  const answers = isObject(payload) ? payload.answers : undefined;
  return isObject(answers) ? answers : {};
};

export const waitForWebhook = defineAction({
  key: 'waitForWebhook',
  name: 'Wait for a webhook',
  description:
    "Pauses the run until a request reaches its resume URL ({{execution.resumeUrl}}); the request's body is the output.",
  arguments: { timeoutMinutes: timeout(true) },
  async run(ctx) {
    const run = runOf(ctx);
    const { timeoutMinutes } = ctx.parameters;
    const waiting = await startWaiting(run, timeoutMinutes);
    const signal = await run.takeSignal('webhook');
    if (signal) return requestOutput(signal.payload);
    return waitMore(waiting, `No request reached the resume URL within ${minutes(timeoutMinutes)}.`);
  },
});

export const waitForApproval = defineAction({
  key: 'waitForApproval',
  name: 'Wait for approval',
  description:
    'Pauses the run until someone approves or rejects, through links it can e-mail; the output says which, and when.',
  arguments: { message, recipients, timeoutMinutes: timeout(false) },
  async run(ctx) {
    const run = runOf(ctx);
    const { timeoutMinutes } = ctx.parameters;
    assertCanMail(ctx, ctx.parameters.recipients);
    const waiting = await startWaiting(run, timeoutMinutes);
    if (waiting.first && ctx.parameters.recipients) {
      const url = await run.resumeUrl();
      await sendLinks(ctx, {
        recipients: ctx.parameters.recipients,
        subject: 'Approval requested',
        message: ctx.parameters.message,
        links: [
          { label: 'Approve', url: `${url}/approve` },
          { label: 'Reject', url: `${url}/reject` },
        ],
        deadline: waiting.deadline,
      });
    }
    const signal = await run.takeSignal('approval');
    if (signal) {
      const answer = signal.payload;
      return { approved: isObject(answer) && answer.approved === true, at: signal.at.toISOString() };
    }
    return waitMore(waiting, `Nobody approved or rejected within ${minutes(timeoutMinutes)}.`);
  },
});

export const waitForForm = defineAction({
  key: 'waitForForm',
  name: 'Wait for a form',
  description:
    "Pauses the run until someone fills in a form at a link it can e-mail; the form's answers are the output.",
  arguments: {
    formId: dynamicDropdown({ label: 'Form', required: true, dynamicData: 'listForms' }),
    message,
    recipients,
    timeoutMinutes: timeout(false),
  },
  async run(ctx) {
    const run = runOf(ctx);
    const { formId, timeoutMinutes } = ctx.parameters;
    assertCanMail(ctx, ctx.parameters.recipients);
    const waiting = await startWaiting(run, timeoutMinutes);
    if (waiting.first && ctx.parameters.recipients) {
      const url = await run.resumeUrl();
      await sendLinks(ctx, {
        recipients: ctx.parameters.recipients,
        subject: 'A form is waiting for you',
        message: ctx.parameters.message,
        links: [{ label: 'Fill in the form', url: `${url}/forms/${encodeURIComponent(formId)}` }],
        deadline: waiting.deadline,
      });
    }
    const signal = await run.takeSignal('form');
    if (signal) return formOutput(signal.payload);
    return waitMore(waiting, `The form was not filled in within ${minutes(timeoutMinutes)}.`);
  },
});
