import { type Context, Hono } from 'hono';
import type { FormReply } from '../../../core/application/forms/submit-form.js';
import { type Form, formTitle } from '../../../core/domain/form.js';
import type { SentValues } from '../../../core/domain/form-answers.js';
import type { AppEnv, HttpDeps } from '../context.js';
import { renderFailure } from '../error-table.js';
import { type Failure, FailureResponse, fail, inputFailureOf } from '../failures.js';
import { FORM_PAGE_CSP, renderFormPage, renderMessagePage } from '../form-page.js';
import { bodyText } from '../request-body.js';
import { unwrap } from '../respond.js';
import { idParam } from '../validation.js';

/** A form's public page (Automatisch's address, by the form's id). */
export const FORM_PAGE_ROUTE = '/forms/:formId';
/** The page of a form a waiting run asks for: under its resume URL. */
export const RUN_FORM_PAGE_ROUTE = '/webhooks/runs/:executionId/:token/forms/:formId';

/** Answers are short: a form's body is bounded well below the API's. */
export const FORM_BODY_LIMIT_BYTES = 256 * 1024;

const THANKS = 'Thank you. Your answers were received.';
const NO_FORM = 'This form does not exist, or it was removed.';
const NO_RUN_FORM = 'This link does not lead to a form any more: the answers were given, or the run it was for ended.';

const htmlPage = (status: number, html: string, headers: Readonly<Record<string, string>> = {}) =>
  new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': FORM_PAGE_CSP,
      ...headers,
    },
  });

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });

/** A failure as a page, with the error table's status and words; "not found" in the page's own. */
const failurePage = (failure: Failure, notFound: string) => {
  const rendered = renderFailure(failure);
  const missing = rendered.status === 404;
  const message = missing ? notFound : Object.values(rendered.errors).flat().join(' ');
  const title = missing ? 'Not found' : 'Your answers were not sent';
  return htmlPage(rendered.status, renderMessagePage({ title, message, refused: true }), rendered.headers);
};

/** These pages are for people: their failures are pages too, never the API's JSON. */
const asPage =
  (notFound: string, handler: (c: Context<AppEnv>) => Promise<Response>) =>
  async (c: Context<AppEnv>): Promise<Response> => {
    try {
      return await handler(c);
    } catch (error) {
      const failure = error instanceof FailureResponse ? error.failure : inputFailureOf(error);
      if (!failure) throw error;
      return failurePage(failure, notFound);
    }
  };

/** The page's address with its query string, which the form posts back to. */
const here = (c: Context) => {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
};

/** The page's query parameters: they fill in fields, and the rest are sent along (Automatisch's page does). */
const queryValues = (c: Context): SentValues => new Map(new URL(c.req.url).searchParams);

/** What a browser posts: a urlencoded body within the form's bound; a name sent twice keeps its last value. */
const sentValues = async (c: Context<AppEnv>): Promise<SentValues> => {
  const limitBytes = Math.min(c.get('bodyLimitBytes') ?? Number.POSITIVE_INFINITY, FORM_BODY_LIMIT_BYTES);
  c.set('bodyLimitBytes', limitBytes);
  const length = c.req.header('content-length');
  if (length !== undefined && Number(length) > limitBytes) fail({ code: 'http.payload_too_large', limitBytes });
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
    fail({
      code: 'http.bad_request',
      message: 'A form is sent as application/x-www-form-urlencoded, as browsers send it.',
    });
  }
  return new Map(new URLSearchParams(await bodyText(c)));
};

/** A flow's answer may send the visitor on (`X-Redirect-URL`, as Automatisch's page reads it): http or https only. */
const redirectOf = (headers: Readonly<Record<string, string>>): string | null => {
  const [, target] = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-redirect-url') ?? [];
  try {
    const url = new URL(target ?? '');
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

const textOf = (body: unknown) =>
  typeof body === 'string' ? body : body === null ? '' : JSON.stringify(body, null, 2);

/** The page after the answers: the form again with its problems, a flow's answer, a redirect, or thanks. */
const replyPage = (form: Form, reply: FormReply, action: string, sent: SentValues, back?: string) => {
  const title = formTitle(form);
  switch (reply.kind) {
    case 'invalid':
      return htmlPage(422, renderFormPage({ form, action, values: sent, problems: reply.problems }));
    case 'redirect':
      return seeOther(reply.url);
    case 'received':
      return htmlPage(200, renderMessagePage({ title, message: reply.message || THANKS, ...(back && { back }) }));
    case 'respond': {
      const target = redirectOf(reply.headers);
      if (target) return seeOther(target);
      // A refusal keeps its status; any other answer is a page like the rest (200).
      const refused = reply.statusCode >= 400;
      const message = textOf(reply.body) || form.responseMessage || THANKS;
      return htmlPage(
        refused ? reply.statusCode : 200,
        renderMessagePage({ title, message, refused, ...(back && { back }) }),
      );
    }
  }
};

/**
 * The pages of forms (docs/api.md, "Forms"): public, for people. A form's page shows it and takes
 * its answers for every flow that listens for it; a waiting run's form page hands them to the run.
 */
export const formPageRoutes = (deps: HttpDeps) => {
  const { useCases } = deps;
  const runForm = (c: Context) => ({
    executionId: idParam(c, 'executionId', 'Execution'),
    token: c.req.param('token') ?? '',
    formId: idParam(c, 'formId', 'Form'),
  });
  return new Hono<AppEnv>()
    .get(
      FORM_PAGE_ROUTE,
      asPage(NO_FORM, async (c) => {
        const form = unwrap(await useCases.getPublicForm(idParam(c, 'formId', 'Form')));
        return htmlPage(200, renderFormPage({ form, action: here(c), values: queryValues(c) }));
      }),
    )
    .post(
      FORM_PAGE_ROUTE,
      asPage(NO_FORM, async (c) => {
        const formId = idParam(c, 'formId', 'Form');
        const submission = { sent: await sentValues(c), extras: queryValues(c) };
        const { form, reply } = unwrap(await useCases.submitForm(formId, submission));
        return replyPage(form, reply, here(c), submission.sent, here(c));
      }),
    )
    .get(
      RUN_FORM_PAGE_ROUTE,
      asPage(NO_RUN_FORM, async (c) => {
        const form = unwrap(await useCases.getRunForm(runForm(c)));
        return htmlPage(200, renderFormPage({ form, action: here(c), values: queryValues(c) }));
      }),
    )
    .post(
      RUN_FORM_PAGE_ROUTE,
      asPage(NO_RUN_FORM, async (c) => {
        const address = runForm(c);
        const submission = { sent: await sentValues(c), extras: queryValues(c) };
        const { form, reply } = unwrap(await useCases.answerRunForm(address, submission));
        return replyPage(form, reply, here(c), submission.sent);
      }),
    );
};
