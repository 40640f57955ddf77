/** A programmatic credential of an administrator. Only its hash and its ends are stored. */
export interface ApiToken {
  readonly id: string;
  readonly userId: string;
  /** First 4 + "..." + last 4 characters, enough to recognise a token without revealing it. */
  readonly maskedToken: string;
  readonly createdAt: Date;
}

export const maskToken = (token: string): string => `${token.slice(0, 4)}...${token.slice(-4)}`;
