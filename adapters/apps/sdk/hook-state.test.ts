import { describe, expect, it } from 'vitest';
import { deleteHook, hookFields } from './hook-state.js';
import type { HttpClient, HttpRequest } from './http-client.js';
import { HttpError } from './http-errors.js';

describe('hookFields', () => {
  it("reads the hook's text values, or nothing when one is missing", () => {
    expect(hookFields({ id: 'wh-1', secret: 's', extra: 1 }, 'id', 'secret')).toEqual({ id: 'wh-1', secret: 's' });
    expect(hookFields({ id: 'wh-1' }, 'id', 'secret')).toBeNull();
    expect(hookFields({ id: 'wh-1', secret: '' }, 'id', 'secret')).toBeNull();
    expect(hookFields({ id: 7, secret: 's' }, 'id', 'secret')).toBeNull();
    expect(hookFields(null, 'id')).toBeNull();
  });
});

describe('deleteHook', () => {
  const answering = (status: number) => {
    const sent: HttpRequest[] = [];
    const http: HttpClient = {
      async request<T>(request: HttpRequest) {
        sent.push(request);
        if (status >= 400) throw new HttpError(status, 'DELETE', 'https://api.test/hooks/1', { message: 'x' }, null);
        return { status, headers: {}, data: null as T };
      },
    };
    return { http, sent };
  };

  it('deletes, and takes a hook the vendor no longer has as deleted', async () => {
    const ok = answering(204);
    await deleteHook(ok.http, { path: '/hooks/1' });
    expect(ok.sent).toEqual([{ method: 'DELETE', path: '/hooks/1' }]);
    await expect(deleteHook(answering(404).http, { path: '/hooks/1' })).resolves.toBeUndefined();
    await expect(deleteHook(answering(410).http, { path: '/hooks/1' })).resolves.toBeUndefined();
    await expect(deleteHook(answering(500).http, { path: '/hooks/1' })).rejects.toBeInstanceOf(HttpError);
  });
});
