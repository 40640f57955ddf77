import { defineApp, noAuth } from '../sdk/index.js';
import { icon } from './icon.js';
import { mcpTool, respondWith } from './tool.js';

/** Flows as tools of the MCP servers Conveyor serves (`/api/v1/mcp/:token`). */
export const mcp = defineApp({
  key: 'mcp',
  name: 'MCP',
  description: 'Make a flow a tool that MCP clients (AI assistants and agents) call, and answer them.',
  icon,
  primaryColor: '#ff6b35',
  categories: ['ai'],
  version: 1,
  auth: noAuth(),
  triggers: [mcpTool],
  actions: [respondWith],
});
