import type { DomainError } from '../../domain/errors.js';
import type { Result } from '../../domain/result.js';
import type { CoreDeps } from '../deps.js';
import { redeemWithPassword } from './mailed-tokens.js';

export interface AcceptInvitationInput {
  readonly token: string;
  readonly password: string;
}

export const makeAcceptInvitation =
  (deps: Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'passwords' | 'secrets'>) =>
  (input: AcceptInvitationInput): Promise<Result<void, DomainError>> =>
    redeemWithPassword(deps, 'invitation', input, (tx, userId, passwordHash, now) =>
      tx.users.activate(userId, passwordHash, now),
    );
