import { describe, expect, it } from 'vitest';
import type { Actor } from '../domain/actor.js';
import { ADMIN_ROLE_NAME, type Role, USER_ROLE_NAME } from '../domain/role.js';
import { ownAccountOnly } from './own-account.js';

const AT = new Date('2026-11-22T10:00:00.000Z');
const ALICE_ID = '11111111-1111-4111-8111-111111111111';
const BOB_ID = '22222222-2222-4222-8222-222222222222';

const role = (isAdmin: boolean): Role => ({
  id: isAdmin ? 'role-admin' : 'role-user',
  name: isAdmin ? ADMIN_ROLE_NAME : USER_ROLE_NAME,
  description: null,
  isAdmin,
  permissions: [],
  createdAt: AT,
  updatedAt: AT,
});

const actor = (id: string, isAdmin = false): Actor => {
  const userRole = role(isAdmin);
  return {
    user: {
      id,
      email: `${id}@example.com`,
      fullName: 'Some One',
      status: 'active',
      roleId: userRole.id,
      createdAt: AT,
      updatedAt: AT,
      role: userRole,
    },
    credential: { kind: 'access-token', tokenId: 'token-1' },
  };
};

describe('ownAccountOnly', () => {
  it('allows a user to act on their own account', () => {
    expect(ownAccountOnly(actor(ALICE_ID), ALICE_ID)).toBeNull();
  });

  it('allows an admin to act on their own account', () => {
    expect(ownAccountOnly(actor(ALICE_ID, true), ALICE_ID)).toBeNull();
  });

  it("refuses a user acting on someone else's account", () => {
    expect(ownAccountOnly(actor(ALICE_ID), BOB_ID)).toEqual({
      code: 'auth.forbidden',
      reason: 'You can only change your own account.',
    });
  });

  it("refuses an admin acting on someone else's account", () => {
    expect(ownAccountOnly(actor(ALICE_ID, true), BOB_ID)).toMatchObject({ code: 'auth.forbidden' });
  });

  it('refuses an empty or merely similar id', () => {
    expect(ownAccountOnly(actor(ALICE_ID), '')).toMatchObject({ code: 'auth.forbidden' });
    expect(ownAccountOnly(actor(ALICE_ID), `${ALICE_ID} `)).toMatchObject({ code: 'auth.forbidden' });
  });
});
