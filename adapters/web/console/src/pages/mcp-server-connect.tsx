import { useState } from 'preact/hooks';
import { api } from '../api';
import type { McpServer } from '../types';
import { FormErrors, useAction } from '../ui';
import { clientConfiguration } from './mcp-client-config';

interface Secret {
  readonly token: string;
  readonly serverUrl: string;
}

/**
 * The secret of a server just created, kept in memory only, for its page to show once: the token
 * is in no answer after the one that made it.
 */
let fresh: (Secret & { readonly id: string }) | null = null;

export const rememberSecret = (server: McpServer) => {
  fresh = server.token && server.serverUrl ? { id: server.id, token: server.token, serverUrl: server.serverUrl } : null;
};

const takeSecret = (serverId: string): Secret | null => {
  const secret = fresh?.id === serverId ? fresh : null;
  fresh = null;
  return secret;
};

const PLACEHOLDER_URL = 'YOUR-SERVER-ADDRESS';

const CopyButton = ({ text, label }: { text: string; label: string }) => {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="small"
      onClick={() =>
        navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : label}
    </button>
  );
};

/** How a client connects: the address with its token (once), the client configuration, a new token. */
export const McpServerConnect = ({ server }: { server: McpServer }) => {
  const [secret, setSecret] = useState<Secret | null>(() => takeSecret(server.id));
  const rotate = useAction();
  const serverUrl = secret?.serverUrl ?? PLACEHOLDER_URL;
  return (
    <section aria-label="Connect a client">
      {secret ? (
        <div class="alert alert-success secret" role="status">
          <p>
            <strong>Copy the server’s address now: you will not see it again.</strong> It holds the token that lets
            clients call the tools; anyone with it can. If it is lost, make a new token.
          </p>
          <div class="inline">
            <code data-testid="mcp-server-url">{secret.serverUrl}</code>
            <CopyButton text={secret.serverUrl} label="Copy the address" />
          </div>
          <p class="muted">
            Token: <code data-testid="mcp-server-token">{secret.token}</code>
          </p>
        </div>
      ) : (
        <p class="hint">
          The address holds a secret token that is shown only when it is made. Lost it? Make a new token: the old
          address stops working.
        </p>
      )}
      <h3>Claude Desktop</h3>
      <p class="hint">
        Add this to <code>claude_desktop_config.json</code> (Settings → Developer → Edit config) and restart Claude
        Desktop.{secret ? '' : ` Put the server’s address in place of ${PLACEHOLDER_URL}.`} Clients that speak MCP’s
        Streamable HTTP themselves (Cursor, VS Code, Claude’s connectors) take the address as it is.
      </p>
      <pre class="json" data-testid="mcp-client-configuration">
        {clientConfiguration(server.name, serverUrl)}
      </pre>
      {secret && <CopyButton text={clientConfiguration(server.name, serverUrl)} label="Copy the configuration" />}
      <h3>A new token</h3>
      <FormErrors errors={rotate.errors} />
      <button
        type="button"
        class="danger"
        disabled={rotate.busy}
        onClick={async () => {
          if (!confirm('Make a new token? Clients using the current address stop getting through.')) return;
          const answer = await rotate.run(() => api.post<McpServer>(`/mcp-servers/${server.id}/rotate-token`));
          if (answer?.data.token && answer.data.serverUrl)
            setSecret({ token: answer.data.token, serverUrl: answer.data.serverUrl });
        }}
      >
        Make a new token
      </button>
    </section>
  );
};
