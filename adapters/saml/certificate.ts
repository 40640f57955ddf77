import { X509Certificate } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * One X.509 certificate given as PEM or as bare base64 (as IdP metadata carries it), in PEM form;
 * null when the text is anything else, several certificates included.
 */
export const readCertificate = (text: string): string | null => {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  if (blocks.length > 1) return null;
  const body = (blocks[0]?.[1] ?? text).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  try {
    return new X509Certificate(Buffer.from(body, 'base64')).toString();
  } catch {
    return null;
  }
};
