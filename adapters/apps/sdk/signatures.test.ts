import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacBase64, hmacHex, safeEqual } from './signatures.js';

describe('signature helpers', () => {
  // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
  const rfc4231 = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';

  it('hmacHex is the HMAC in lowercase hex (RFC 4231 vectors)', () => {
    expect(hmacHex('sha256', 'Jefe', 'what do ya want for nothing?')).toBe(rfc4231);
    expect(hmacHex('sha256', Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?'))).toBe(rfc4231);
    expect(hmacHex('sha512', 'Jefe', 'what do ya want for nothing?')).toMatch(/^164b7a7bfcf819e2/);
  });

  it('hmacBase64 is the same HMAC in base64', () => {
    expect(hmacBase64('sha256', 'Jefe', 'what do ya want for nothing?')).toBe(
      Buffer.from(rfc4231, 'hex').toString('base64'),
    );
  });

  it('signs the bytes given: one changed character or key changes the signature', () => {
    const body = '{"id":"evt_1","amount":100}';
    const signature = hmacHex('sha256', 'whsec_1', body);
    expect(hmacHex('sha256', 'whsec_1', body.replace('100', '101'))).not.toBe(signature);
    expect(hmacHex('sha256', 'whsec_2', body)).not.toBe(signature);
    expect(signature).toBe(createHmac('sha256', 'whsec_1').update(body).digest('hex'));
  });

  it('safeEqual holds only for equal texts, whatever their lengths', () => {
    const signature = hmacHex('sha256', 'k', 'payload');
    expect(safeEqual(signature, signature)).toBe(true);
    const lastFlipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    expect(safeEqual(signature, lastFlipped)).toBe(false);
    expect(safeEqual(signature, signature.toUpperCase())).toBe(false);
    expect(safeEqual(signature, signature.slice(0, 10))).toBe(false);
    expect(safeEqual('', signature)).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('é', 'é')).toBe(true);
    expect(safeEqual('é', 'e\u0301')).toBe(false);
  });
});
