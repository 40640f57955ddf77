import * as v from 'valibot';
import { closedObject, emailField, fullNameField, newPasswordField, requiredObject, tokenField } from './fields.js';

const uuid = v.pipe(v.string('must be a string.'), v.uuid('must be a UUID.'));
const nullableText = (max: number) =>
  v.nullable(v.pipe(v.string('must be a string.'), v.trim(), v.maxLength(max, `must be at most ${max} characters.`)));
const color = v.nullable(
  v.pipe(v.string('must be a string.'), v.regex(/^#[0-9a-f]{6}$/i, 'must be a colour like #0059f7.')),
);
const httpUrl = v.pipe(
  v.string('must be a string.'),
  v.url('must be a URL.'),
  v.regex(/^https?:\/\//i, 'must be an http(s) URL.'),
);
// Logos are shown to everyone before sign-in; refuse anything that could run script when inlined.
const svg = v.nullable(
  v.pipe(
    v.string('must be a string.'),
    v.maxLength(65_536, 'must be at most 64 KiB.'),
    v.regex(/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i, 'must be an SVG document.'),
    v.check((s) => !/<script|\son\w+\s*=|javascript:|<foreignObject/i.test(s), 'must not contain scripts.'),
  ),
);

export const permissionSchema = requiredObject({
  action: v.string('must be a string.'),
  subject: v.string('must be a string.'),
  conditions: v.optional(v.array(v.string('must be a string.'), 'must be an array.'), []),
});

const roleName = v.pipe(v.string('must be a string.'), v.trim(), v.nonEmpty('is required.'), v.maxLength(255));
const permissionList = v.pipe(v.array(permissionSchema, 'must be an array.'), v.maxLength(50));

export const roleSchema = closedObject({
  name: roleName,
  description: v.optional(nullableText(1000)),
  permissions: v.optional(permissionList, []),
});

/** PATCH changes only what it names. */
export const roleChangesSchema = closedObject({
  name: v.optional(roleName),
  description: v.optional(nullableText(1000)),
  permissions: v.optional(permissionList),
});

export const inviteUserSchema = closedObject({ fullName: fullNameField, email: emailField, roleId: uuid });

export const adminUpdateUserSchema = closedObject({
  fullName: v.optional(fullNameField),
  email: v.optional(emailField),
  roleId: v.optional(uuid),
});

export const acceptInvitationSchema = requiredObject({ token: tokenField, password: newPasswordField });

export const configSchema = closedObject({
  title: v.optional(nullableText(100)),
  primaryMainColor: v.optional(color),
  primaryDarkColor: v.optional(color),
  primaryLightColor: v.optional(color),
  logoSvgData: v.optional(svg),
  footerLinks: v.optional(
    v.pipe(
      v.array(
        closedObject({
          label: v.pipe(v.string(), v.trim(), v.nonEmpty('is required.'), v.maxLength(100)),
          url: httpUrl,
        }),
        'must be an array.',
      ),
      v.maxLength(10, 'must have at most 10 links.'),
    ),
  ),
  enableTemplates: v.optional(v.boolean('must be a boolean.')),
  registrationEnabled: v.optional(v.boolean('must be a boolean.')),
});
