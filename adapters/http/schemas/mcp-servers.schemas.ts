import * as v from 'valibot';
import { MCP_SERVER_NAME_MAX } from '../../../core/domain/mcp-server.js';
import { closedObject } from './fields.js';

const name = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.nonEmpty('is required.'),
  v.maxLength(MCP_SERVER_NAME_MAX, `must be at most ${MCP_SERVER_NAME_MAX} characters.`),
);
const key = v.optional(
  v.nullable(v.pipe(v.string('must be a string.'), v.maxLength(255, 'must be at most 255 characters.'))),
);
const id = v.optional(v.nullable(v.pipe(v.string('must be a string.'), v.uuid('must be a UUID.'))));

/** `POST /mcp-servers` and `PATCH /mcp-servers/:id`: Automatisch's body, its name. */
export const mcpServerSchema = closedObject({ name });

/** `POST /mcp-servers/:id/tools`: Automatisch's body; `type` is `app` unless given. */
export const newMcpToolSchema = closedObject({
  type: v.optional(v.picklist(['app', 'flow'], 'must be one of: app, flow.'), 'app'),
  appKey: key,
  action: key,
  connectionId: id,
  flowId: id,
});
