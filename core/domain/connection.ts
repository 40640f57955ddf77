import type { Credentials } from './app.js';

export interface Connection {
  readonly id: string;
  readonly appKey: string;
  readonly userId: string;
  readonly oauthClientId: string | null;
  readonly verified: boolean;
  /** The account name the app reported (a login, an address): all a connection shows of itself. */
  readonly screenName: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A connection with its decrypted credentials: only ever in memory, never presented. */
export interface ConnectionWithCredentials extends Connection {
  readonly credentials: Credentials;
}
