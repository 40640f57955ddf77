import { escapeHtml } from '../html.js';
import type { OpenApiDocument } from './document.js';

type Json = Record<string, any>;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:1px solid #ccc;padding-bottom:.2rem;margin-top:2.5rem}
details{border:1px solid #ddd;border-radius:4px;margin:.4rem 0;padding:.3rem .6rem}
summary{cursor:pointer}code,pre{font:13px ui-monospace,monospace}pre{background:#f6f6f6;padding:.5rem;overflow:auto}
.method{display:inline-block;width:4.5rem;font-weight:bold}.guard{color:#666;margin-left:.6rem}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.15rem .5rem;text-align:left}`;

const parameterRows = (document: OpenApiDocument, parameters: Json[]) =>
  parameters
    .map(
      (parameter): Json =>
        parameter.$ref ? (document.components.parameters[parameter.$ref.split('/').pop()] ?? {}) : parameter,
    )
    .map(
      (p: Json) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
    )
    .join('');

/** A response's description, following a `$ref` to the shared error responses. */
const describe = (document: OpenApiDocument, response: Json): string =>
  response.$ref
    ? (document.components.responses[response.$ref.split('/').pop()]?.description ?? '')
    : response.description;

const operationHtml = (document: OpenApiDocument, method: string, path: string, operation: Json) => {
  const parameters: Json[] = operation.parameters ?? [];
  const body = Object.entries((operation.requestBody?.content ?? {}) as Json).map(
    ([type, media]) =>
      `<p>Body (<code>${escapeHtml(type)}</code>):</p><pre>${escapeHtml(JSON.stringify(media.schema, null, 2))}</pre>`,
  );
  const responses = Object.entries(operation.responses as Json).map(
    ([status, response]) => `<li><code>${escapeHtml(status)}</code> ${escapeHtml(describe(document, response))}</li>`,
  );
  return `<details id="${escapeHtml(operation.operationId)}"><summary><span class="method">${escapeHtml(method.toUpperCase())}</span><code>${escapeHtml(path)}</code> — ${escapeHtml(operation.summary)}<span class="guard">${escapeHtml(operation['x-guard'])}</span></summary>
${parameters.length ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th></tr>${parameterRows(document, parameters)}</table>` : ''}
${body.join('')}<p>Responses:</p><ul>${responses.join('')}</ul></details>`;
};

/** A self-contained reference (no script, nothing fetched): every operation grouped by tag. */
export const renderReferencePage = (document: OpenApiDocument): string => {
  const sections = document.tags.map(({ name }) => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Json)
        .filter(([, operation]) => (operation.tags as string[]).includes(name))
        .map(([method, operation]) => operationHtml(document, method, path, operation)),
    );
    return `<h2>${escapeHtml(name)}</h2>\n${operations.join('\n')}`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(document.info.title)} API reference</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(document.info.title)} API ${escapeHtml(document.info.version)}</h1>
<p>${escapeHtml(document.info.description)} The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).
Send <code>Authorization: Bearer &lt;access token&gt;</code> or <code>X-Api-Token: &lt;API token&gt;</code>.</p>
${sections.join('\n')}
</body></html>`;
};
