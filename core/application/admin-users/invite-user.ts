import type { MailMessage } from '../../../ports/mailer.js';
import type { Actor } from '../../domain/actor.js';
import { type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { INVITATION_TOKEN_TTL_MS } from '../../domain/tokens.js';
import { normalizeEmail, type UserWithRole } from '../../domain/user.js';
import { adminOnly } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { issueMailedToken } from '../users/mailed-tokens.js';

export interface InviteUserInput {
  readonly fullName: string;
  readonly email: string;
  readonly roleId: string;
}

export interface Invitation {
  readonly user: UserWithRole;
  readonly acceptInvitationUrl: string;
}

const invitationMail = (user: UserWithRole, inviter: string, link: string): MailMessage => ({
  to: user.email,
  subject: 'You are invited to Conveyor',
  text: [
    `Hello ${user.fullName},`,
    '',
    `${inviter} invited you to Conveyor. To accept, choose your password here within 72 hours:`,
    '',
    link,
  ].join('\n'),
});

/** An administrator creates an account that becomes active when its owner sets a password. */
export const makeInviteUser =
  (deps: Pick<CoreDeps, 'uow' | 'clock' | 'ids' | 'secrets' | 'mailer' | 'settings'>) =>
  async (actor: Actor, input: InviteUserInput): Promise<Result<Invitation, DomainError>> => {
    const refused = adminOnly(actor);
    if (refused) return err(refused);
    const result = await deps.uow.run(async (tx) => {
      const role = await tx.roles.findById(input.roleId);
      if (!role) return err(invalidInput({ roleId: ['does not exist.'] }));
      const now = deps.clock.now();
      const user = await tx.users.insert({
        id: deps.ids.next(),
        email: normalizeEmail(input.email),
        fullName: input.fullName.trim(),
        passwordHash: null,
        roleId: role.id,
        status: 'invited',
        now,
      });
      const token = await issueMailedToken(deps, tx, {
        userId: user.id,
        kind: 'invitation',
        ttlMs: INVITATION_TOKEN_TTL_MS,
        now,
      });
      return ok({ user: { ...user, role }, token });
    });
    if (!result.ok) return result;
    const { user, token } = result.value;
    const acceptInvitationUrl = `${deps.settings.webAppUrl}/accept-invitation?token=${token}`;
    await deps.mailer.send(invitationMail(user, actor.user.fullName, acceptInvitationUrl));
    return ok({ user, acceptInvitationUrl });
  };
