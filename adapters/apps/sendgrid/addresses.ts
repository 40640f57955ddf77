/** One address as SendGrid takes it: `{ email, name? }`. */
export interface Address {
  readonly email: string;
  readonly name?: string;
}

/** `ann@x.test` or `Ann Lee <ann@x.test>`. */
export const parseAddress = (text: string): Address => {
  const named = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(text);
  if (named?.[2]) return { email: named[2].trim(), ...(named[1] && { name: named[1] }) };
  return { email: text.trim() };
};

/** Addresses separated by commas or semicolons (a display name holds neither). */
export const parseAddresses = (list: string | undefined): Address[] =>
  (list ?? '')
    .split(/[,;]/)
    .filter((part) => part.trim() !== '')
    .map(parseAddress);
