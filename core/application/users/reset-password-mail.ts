import type { MailMessage } from '../../../ports/mailer.js';
import type { User } from '../../domain/user.js';

export const resetPasswordMail = (user: User, link: string): MailMessage => ({
  to: user.email,
  subject: 'Reset your Conveyor password',
  text: [
    `Hello ${user.fullName},`,
    '',
    'Someone asked to reset the password of your Conveyor account. To choose a new password,',
    'open this link within 30 minutes:',
    '',
    link,
    '',
    'If it was not you, ignore this message: your password stays as it is.',
  ].join('\n'),
});
