import * as v from 'valibot';
import {
  closedObject,
  emailField,
  fullNameField,
  newPasswordField,
  presentedPasswordField,
  requiredObject,
  tokenField,
} from './fields.js';

export const installationSchema = requiredObject({
  email: emailField,
  password: newPasswordField,
  fullName: fullNameField,
});
export const signInSchema = requiredObject({ email: emailField, password: presentedPasswordField });
export const registerSchema = requiredObject({
  fullName: fullNameField,
  email: emailField,
  password: newPasswordField,
});
export const updateProfileSchema = closedObject({ fullName: v.optional(fullNameField), email: v.optional(emailField) });
export const changePasswordSchema = requiredObject({
  currentPassword: presentedPasswordField,
  password: newPasswordField,
});
export const forgotPasswordSchema = requiredObject({ email: emailField });
export const resetPasswordSchema = requiredObject({ token: tokenField, password: newPasswordField });
