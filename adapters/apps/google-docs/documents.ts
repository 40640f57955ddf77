import { type HttpClient, segment } from '../sdk/index.js';

/** Applies Docs edits (`insertText`, `replaceAllText`...) in one batch: Docs' answer with its replies. */
export const batchUpdate = async (http: HttpClient, documentId: string, requests: readonly unknown[]) =>
  (
    await http.request<{ documentId: string; replies?: unknown[] }>({
      method: 'POST',
      path: `/v1/documents/${segment(documentId)}:batchUpdate`,
      body: { requests },
    })
  ).data;
