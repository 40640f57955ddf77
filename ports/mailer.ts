export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

export interface Mailer {
  /**
   * Accepts a message for delivery. It resolves once the message is accepted, not when it is
   * delivered, so a caller's response time says nothing about the recipient.
   */
  send(message: MailMessage): Promise<void>;
}
