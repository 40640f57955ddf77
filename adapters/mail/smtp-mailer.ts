import nodemailer from 'nodemailer';
import type { Mailer } from '../../ports/mailer.js';

/** Sends through the server named by an `smtp://` or `smtps://` URL, as nodemailer reads it. */
export const createSmtpMailer = (smtpUrl: string, from: string): Mailer => {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
};
