import { describe, expect, it } from 'vitest';
import { mappedRoleId, samlNewUserProfile, samlPaths } from './saml.js';

const mapping = (remoteRoleName: string, roleId: string) => ({
  id: `m-${remoteRoleName}`,
  samlAuthProviderId: 'p',
  roleId,
  remoteRoleName,
});

describe('mappedRoleId', () => {
  const mappings = [mapping('ops', 'role-ops'), mapping('admins', 'role-admin'), mapping('ops-2', 'role-ops')];

  it('takes the first mapping, in mapping order, whose remote role the user holds', () => {
    expect(mappedRoleId(mappings, ['admins', 'ops'], 'default')).toBe('role-ops');
    expect(mappedRoleId(mappings, ['ops-2', 'admins'], 'default')).toBe('role-admin');
  });

  it('falls back to the default role', () => {
    expect(mappedRoleId(mappings, ['Admins', 'staff'], 'default')).toBe('default');
    expect(mappedRoleId(mappings, [], 'default')).toBe('default');
    expect(mappedRoleId([], ['ops'], 'default')).toBe('default');
  });
});

describe('samlNewUserProfile', () => {
  const names = { emailAttributeName: 'mail', firstnameAttributeName: 'given', surnameAttributeName: 'sn' };

  it('reads the e-mail and the names from the configured attributes', () => {
    expect(samlNewUserProfile(names, 'x', { mail: [' Ada@Example.COM '], given: ['Ada'], sn: ['Lovelace'] })).toEqual({
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
    });
  });

  it('takes a name id that is an e-mail address when the attribute is missing, and the address as name', () => {
    expect(samlNewUserProfile(names, 'grace@example.com', { given: [''] })).toEqual({
      email: 'grace@example.com',
      fullName: 'grace@example.com',
    });
  });

  it('finds no profile without an e-mail address', () => {
    expect(samlNewUserProfile(names, 'opaque-id', { mail: ['not an address'] })).toBeNull();
    expect(samlNewUserProfile(names, 'opaque-id', {})).toBeNull();
  });
});

describe('samlPaths', () => {
  it('puts the issuer in one path segment', () => {
    expect(samlPaths('https://sp.example/a b')).toEqual({
      login: '/login/saml/https%3A%2F%2Fsp.example%2Fa%20b',
      callback: '/login/saml/https%3A%2F%2Fsp.example%2Fa%20b/callback',
      logout: '/logout/saml/https%3A%2F%2Fsp.example%2Fa%20b',
    });
  });
});
