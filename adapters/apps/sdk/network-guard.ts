import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './ip-address.js';

export { isPublicAddress } from './ip-address.js';

/** What the instance lets integrations reach. */
export interface NetworkPolicy {
  /** Self-hosters who automate their own LAN turn this on; shared instances must not. */
  readonly allowPrivateNetworks: boolean;
}

/** The user who meets the refusal is told which setting lifts it (it is the operator's to change). */
const ALLOW_HINT = 'An administrator can allow them by setting ALLOW_PRIVATE_NETWORKS=true.';

/** A connection refused because the address is loopback, private, link-local or otherwise internal. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'ERR_CONVEYOR_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string | null,
  ) {
    super(
      `Refused to connect to ${address && address !== host ? `${host} (${address})` : host}: private and internal network addresses are not allowed. ${ALLOW_HINT}`,
    );
  }
}

/** The guard's refusal behind an error (a fetch wraps it as its cause), or null. */
export const blockedCause = (error: unknown): BlockedAddressError | null => {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof BlockedAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
};

const unbracket = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** Every address a name resolves to, as `dns.lookup` with `all: true` gives them; tests answer in its place. */
export type ResolveHost = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

export const systemResolver: ResolveHost = (hostname, options) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

const lookupAll = (host: string) => systemResolver(host, { verbatim: true });

/**
 * The address to connect to instead of `host`, refusing internal addresses unless the policy
 * allows them. Callers must connect to the returned address, not resolve `host` again, or a second
 * DNS answer could point elsewhere; `host` stays the TLS server name. When private networks are
 * allowed there is nothing to pin and `host` comes back unchanged.
 */
export const assertHostAllowed = async (host: string, policy: NetworkPolicy): Promise<string> => {
  const bare = unbracket(host.trim());
  if (bare === '') throw new BlockedAddressError(host, null);
  if (policy.allowPrivateNetworks) return bare;
  if (isIP(bare)) {
    if (!isPublicAddress(bare)) throw new BlockedAddressError(host, bare);
    return bare;
  }
  const addresses = await lookupAll(bare);
  const allowed = addresses.filter((a) => isPublicAddress(a.address));
  // IPv4 first: a server without an IPv6 route would fail on an AAAA answer.
  const chosen = allowed.find((a) => a.family === 4) ?? allowed[0];
  if (!chosen) throw new BlockedAddressError(host, addresses[0]?.address ?? null);
  return chosen.address;
};

/** Refuses URLs that are not http(s) or that name an internal IP address literally. */
export const assertUrlAllowed = (url: URL, policy: NetworkPolicy): void => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BlockedAddressError(url.host, null);
  }
  const host = unbracket(url.hostname);
  // IP literals never reach the DNS lookup hook, so they are checked here.
  if (isIP(host) && !policy.allowPrivateNetworks && !isPublicAddress(host)) {
    throw new BlockedAddressError(url.hostname, host);
  }
};

/**
 * A `lookup` for sockets that drops every internal address a name resolves to. Installed on the
 * HTTP agent, it runs at connect time for every connection, so a name that first resolved to a
 * public address and later to an internal one (DNS rebinding) is still refused.
 */
export const guardedLookup =
  (policy: NetworkPolicy, resolve: ResolveHost = systemResolver): LookupFunction =>
  (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname, options).then(
      (addresses) => {
        const allowed = policy.allowPrivateNetworks ? addresses : addresses.filter((a) => isPublicAddress(a.address));
        const first = allowed[0];
        if (!first) {
          callback(new BlockedAddressError(hostname, addresses[0]?.address ?? null), '', undefined);
          return;
        }
        if (options.all) callback(null, allowed);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', undefined),
    );
  };
