import { describe, expect, it } from 'vitest';
import { TemporaryError } from '../sdk/index.js';
import { FLAG } from './actions.js';
import { imapFailure } from './connection.js';
import { emailId, emailOutput, findTextParts, flagList, htmlToText } from './message.js';

describe('findTextParts', () => {
  it('finds part 1 of a message of one part', () => {
    expect(findTextParts({ type: 'text/plain' })).toEqual({ text: '1' });
    expect(findTextParts({ type: 'TEXT/HTML' })).toEqual({ html: '1' });
    expect(findTextParts(undefined)).toEqual({});
  });

  it('takes the first inline plain and HTML bodies, not attachments nor attached messages', () => {
    const structure = {
      type: 'multipart/mixed',
      childNodes: [
        {
          type: 'multipart/alternative',
          part: '1',
          childNodes: [
            { type: 'text/plain', part: '1.1' },
            { type: 'text/html', part: '1.2' },
          ],
        },
        { type: 'text/plain', part: '2', disposition: 'attachment' },
        { type: 'message/rfc822', part: '3', childNodes: [{ type: 'text/plain', part: '3.1' }] },
      ],
    };
    expect(findTextParts(structure)).toEqual({ text: '1.1', html: '1.2' });
    expect(
      findTextParts({
        type: 'multipart/mixed',
        childNodes: [
          { type: 'text/plain', part: '1', disposition: 'ATTACHMENT' },
          { type: 'message/rfc822', part: '2', childNodes: [{ type: 'text/html', part: '2.1' }] },
        ],
      }),
    ).toEqual({});
  });
});

describe('htmlToText', () => {
  it('keeps the words and the line breaks, drops tags, styles and scripts', () => {
    expect(
      htmlToText(
        '<html><head><title>T</title><style>p{}</style></head><body><p>Hello&nbsp;<b>you</b> &amp; me</p>' +
          '<script>alert(1)</script><div>a&lt;b &#8364;5<br>next</div>\n\n\n\n<p>end</p></body></html>',
      ),
    ).toBe('Hello you & me\na<b €5\nnext\n\nend');
  });
});

describe('emailOutput', () => {
  const message = {
    uid: 7,
    envelope: {
      subject: 'Hi',
      messageId: '<m@x>',
      date: new Date('2024-01-02T10:00:00Z'),
      from: [{ name: 'Bob', address: 'bob@x' }],
      to: [{ address: 'a@x' }],
    },
    flags: new Set(['\\Seen', '\\Recent']),
    size: 120,
  };

  it('shapes a message, its id being the UIDVALIDITY and the UID', () => {
    expect(emailId(123n, 7)).toBe('123:7');
    expect(emailOutput('INBOX', 123n, message, { text: 'Body' })).toEqual({
      uid: 7,
      uidValidity: 123,
      mailbox: 'INBOX',
      messageId: '<m@x>',
      subject: 'Hi',
      from: { name: 'Bob', address: 'bob@x' },
      to: [{ name: '', address: 'a@x' }],
      cc: [],
      date: '2024-01-02T10:00:00.000Z',
      text: 'Body',
      flags: ['\\Seen'],
      size: 120,
    });
  });

  it('reads the text of an HTML-only message, and falls back to the internal date', () => {
    const output = emailOutput(
      'INBOX',
      1,
      { uid: 1, envelope: {}, internalDate: '2024-05-01T00:00:00Z' },
      { html: '<p>Only <i>HTML</i></p>' },
    );
    expect(output).toMatchObject({
      text: 'Only HTML',
      html: '<p>Only <i>HTML</i></p>',
      date: '2024-05-01T00:00:00.000Z',
    });
    expect(output).toMatchObject({ from: null, subject: '', messageId: null, flags: [], size: 0 });
    expect(flagList(undefined)).toEqual([]);
  });
});

describe('imapFailure', () => {
  const refused = (fields: Record<string, unknown>) => Object.assign(new Error('Command failed'), fields);

  it('gives the server words without its timing, says a login was refused, and marks network failures temporary', () => {
    expect(imapFailure(refused({ responseText: "Mailbox doesn't exist: X (0.001 + 0.000 secs)." })).message).toBe(
      "Mailbox doesn't exist: X.",
    );
    expect(imapFailure(refused({ authenticationFailed: true, responseText: 'Authentication failed.' })).message).toBe(
      'The IMAP server refused the user or password: Authentication failed.',
    );
    const down = imapFailure(refused({ code: 'ECONNREFUSED' }));
    expect(down).toBeInstanceOf(TemporaryError);
    expect(
      imapFailure(refused({ code: 'ERR_SSL_WRONG_VERSION_NUMBER', reason: 'wrong version number' })).message,
    ).toMatch(/^The TLS handshake failed \(wrong version number\): check the port and "Use TLS"/);
    const plain = new Error('other');
    expect(imapFailure(plain)).toBe(plain);
  });
});

describe('FLAG', () => {
  it('takes system flags and keywords, and refuses what is not an atom', () => {
    for (const flag of ['\\Flagged', '\\Seen', '$Label1', 'Invoice', 'a.b-c']) expect(flag).toMatch(FLAG);
    for (const flag of ['two words', 'a(b', 'x*', '"q"', 'é', '\\', 'a]', '']) expect(flag).not.toMatch(FLAG);
  });
});
