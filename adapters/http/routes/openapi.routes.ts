import { Hono } from 'hono';
import { RELEASE } from '../../../core/domain/release.js';
import type { AppEnv } from '../context.js';
import { API_REFERENCE_PATH, buildOpenApiDocument, OPENAPI_DOCUMENT_PATH } from '../openapi/document.js';
import { OPERATIONS } from '../openapi/operations/index.js';
import { renderReferencePage } from '../openapi/reference-page.js';

/** The OpenAPI document and its reference page: public, as they describe the API and hold no data. */
export const openApiRoutes = () => {
  const document = buildOpenApiDocument(OPERATIONS, RELEASE);
  const page = renderReferencePage(document);
  return new Hono<AppEnv>()
    .get(OPENAPI_DOCUMENT_PATH, (c) => c.json(document))
    .get(API_REFERENCE_PATH, (c) => c.html(page));
};
