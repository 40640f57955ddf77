import type { Repositories } from '../../../ports/repositories.js';

/**
 * What removing an account means, whoever does it: the user is soft-deleted (their data is purged
 * later) and every credential they hold stops working at once.
 */
export const removeAccount = async (tx: Repositories, userId: string, now: Date): Promise<void> => {
  await tx.users.softDelete(userId, now);
  await tx.accessTokens.revokeAllOfUser(userId, now);
  await tx.apiTokens.deleteAllOfUser(userId);
};
