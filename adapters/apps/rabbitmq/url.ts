/** An AMQP URI (`amqp://user:password@host:port/vhost`), read the way RabbitMQ's clients read it. */
export interface AmqpTarget {
  readonly protocol: 'amqp' | 'amqps';
  /** The host as written, without IPv6 brackets: the network guard's input and the TLS server name. */
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  /** Decoded; `/` when the URL names none (or `%2F`). */
  readonly vhost: string;
}

const INVALID = 'must be an amqp:// or amqps:// URL with a host.';

/**
 * The parts of an AMQP URI, or null when it is not one. As amqplib: no user and no password is
 * guest/guest, the port defaults to 5672 (5671 for amqps), and the virtual host is the path's one
 * segment, percent-decoded (`%2F` is `/`). Query parameters are ignored.
 */
export const parseAmqpUrl = (value: string): AmqpTarget | null => {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'amqp:' && url.protocol !== 'amqps:') return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const path = url.pathname.replace(/^\//, '');
  if (host === '' || path.includes('/')) return null;
  try {
    const anonymous = url.username === '' && url.password === '';
    return {
      protocol: url.protocol === 'amqp:' ? 'amqp' : 'amqps',
      host,
      port: url.port ? Number(url.port) : url.protocol === 'amqp:' ? 5672 : 5671,
      username: anonymous ? 'guest' : decodeURIComponent(url.username),
      password: anonymous ? 'guest' : decodeURIComponent(url.password),
      vhost: decodeURIComponent(path) || '/',
    };
  } catch {
    return null;
  }
};

/** The url field's rule: a message when the value is not an AMQP URI, null when it is. */
export const amqpUrl = (value: string): string | null => (parseAmqpUrl(value) ? null : INVALID);

/** Reads a stored URL, failing with the rule's words (never the URL, which holds the password). */
export const readAmqpUrl = (value: string): AmqpTarget => {
  const target = parseAmqpUrl(value);
  if (!target) throw new Error(`The connection's URL ${INVALID}`);
  return target;
};

/** How the connection is shown: `user@host:port/vhost`, never the password. */
export const screenNameOf = (target: AmqpTarget): string => {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `${target.username}@${host}:${target.port}/${target.vhost === '/' ? '' : target.vhost}`;
};
