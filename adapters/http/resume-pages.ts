import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { escapeHtml } from './html.js';

export type Answer = 'approve' | 'reject';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}
button{font:inherit;padding:.5rem 1.4rem;border:0;border-radius:6px;color:#fff;background:#0f766e;cursor:pointer}
button.reject{background:#b91c1c}`;

/**
 * A small page of its own under a resume URL. Never cached nor indexed: the address carries the
 * run's token.
 */
const sendPage = (c: Context, status: ContentfulStatusCode, title: string, body: string) =>
  c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    status,
    { 'cache-control': 'no-store' },
  );

const WORDS: Readonly<Record<Answer, { readonly verb: string; readonly noun: string }>> = {
  approve: { verb: 'Approve', noun: 'approval' },
  reject: { verb: 'Reject', noun: 'rejection' },
};

/**
 * What an approve or reject link opens: a button that answers. Opening the link answers nothing,
 * since mail scanners open links to look at them; the form posts back to the same address.
 */
export const sendConfirmation = (c: Context, answer: Answer) => {
  const { verb } = WORDS[answer];
  return sendPage(
    c,
    200,
    `${verb} this request?`,
    `<p>Nothing is sent until you press the button.</p><form method="post"><button type="submit" class="${escapeHtml(answer)}">${escapeHtml(verb)}</button></form>`,
  );
};

export const sendThanks = (c: Context, answer: Answer) =>
  sendPage(c, 200, 'Thank you', `<p>Your ${escapeHtml(WORDS[answer].noun)} was recorded. You can close this page.</p>`);

export const sendLinkNotFound = (c: Context) =>
  sendPage(
    c,
    404,
    'This link leads nowhere',
    '<p>The link is wrong, or the run it belonged to has ended: it can no longer be answered.</p>',
  );
