/** What the server is called in a client's configuration: its name, in the characters such keys take. */
const clientKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'conveyor';

/**
 * Claude Desktop's configuration (`claude_desktop_config.json`) for a remote server: it starts
 * local servers only, so `mcp-remote` bridges to the address. Clients that speak Streamable HTTP
 * themselves take the address as it is.
 */
export const clientConfiguration = (name: string, serverUrl: string) =>
  JSON.stringify(
    { mcpServers: { [clientKey(name)]: { command: 'npx', args: ['-y', 'mcp-remote', serverUrl] } } },
    null,
    2,
  );
