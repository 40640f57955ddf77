import type { UseCases } from '../../core/application/use-cases.js';
import type { License } from '../../core/domain/license.js';
import type { CliIo } from './command-line.js';

/** Licence keys and signatures (Ed25519, PEM), as the server's licence check reads them. */
export interface LicenseSigner {
  generateKeyPair(): { readonly publicKeyPem: string; readonly privateKeyPem: string };
  /** The licence text of `license`; throws when the key cannot sign. */
  sign(license: License, privateKeyPem: string): string;
}

/**
 * What the CLI needs from the composition that starts it. The CLI parses command lines and calls
 * use cases; opening the database, running the processes and signing licences are the
 * composition's. `withUseCases` and `migrate` read their configuration from `io.env` and throw a
 * failure to open as its one-line explanation; the processes read the `env` given (`process.env`
 * when absent, as `npm start` does) and end a failed start themselves.
 */
export interface CliHost {
  /** Runs `work` with the use cases of the instance, without serving or running flows, and closes it after. */
  withUseCases<T>(io: CliIo, work: (useCases: UseCases) => Promise<T>): Promise<T>;
  /** Brings the database's schema up to date; answers the names of the migrations it applied. */
  migrate(io: CliIo): Promise<readonly string[]>;
  /**
   * Counts, and with `apply` deletes, the connections and OAuth clients no key of this
   * configuration opens (no instance is started: its start would be refused for them).
   */
  forgetCredentials(
    io: CliIo,
    apply: boolean,
  ): Promise<{ readonly connections: number; readonly oauthClients: number }>;
  /** `conveyor start`: serves in this process, which then lives on its open server. */
  runServer(env?: Readonly<Record<string, string | undefined>>): Promise<void>;
  /** `conveyor worker`: runs flows in this process. */
  runWorker(env?: Readonly<Record<string, string | undefined>>): Promise<void>;
  readonly licenses: LicenseSigner;
}

/** One command: its arguments after the command's name; answers the exit code. */
export type Command = (args: string[], io: CliIo, host: CliHost) => number | Promise<number>;
