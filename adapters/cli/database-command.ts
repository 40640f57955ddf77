import type { UseCases } from '../../core/application/use-cases.js';
import type { Actor } from '../../core/domain/actor.js';
import { errorMessages } from '../../core/domain/error-messages.js';
import type { DomainError } from '../../core/domain/errors.js';
import type { Result } from '../../core/domain/result.js';
import { CommandError } from './command-line.js';

/** What the usage of every command that opens the instance says about its configuration. */
export const CONFIGURED = `It is configured by the same environment variables as conveyor start (DATABASE_URL,
ENCRYPTION_KEY, ...); its log lines go to standard error.`;

/** The value of a use case's result, or its failure as one line (the messages the HTTP API answers). */
export const succeeded = <T>(result: Result<T, DomainError>, context: string): T => {
  if (result.ok) return result.value;
  const messages = Object.entries(errorMessages(result.error)).flatMap(([field, list]) =>
    list.map((message) => (field === 'general' ? message : `${field} ${message}`)),
  );
  throw new CommandError(`${context}: ${messages.join('; ')}`);
};

/** The active user with this email, or without one the instance's administrator. */
export const actorFor = async (useCases: UseCases, email?: string): Promise<Actor> =>
  succeeded(
    await useCases.operatorActor(email),
    email === undefined ? 'No active administrator' : `No active user ${email}`,
  );
