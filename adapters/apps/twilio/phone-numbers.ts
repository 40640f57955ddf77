import type { AppContext, DraftContext, HttpClient } from '../sdk/index.js';
import { accountPath, accountSidOf } from './auth.js';

export interface IncomingPhoneNumber {
  readonly sid: string;
  readonly phone_number: string;
  readonly friendly_name?: string | null;
  readonly sms_url?: string | null;
  readonly sms_method?: string | null;
  readonly capabilities?: { readonly sms?: boolean; readonly voice?: boolean; readonly mms?: boolean };
}

const MAX_PAGES = 50;

/**
 * Every entry of a Twilio list: each page names the next one's path with its query
 * (`next_page_uri`), null on the last page.
 */
export const allPages = async <T>(http: HttpClient, firstPath: string, listKey: string, max = 1000): Promise<T[]> => {
  const collected: T[] = [];
  let path: string | null = firstPath;
  for (let pages = 0; path && pages < MAX_PAGES && collected.length < max; pages++) {
    const { data }: { data: Record<string, unknown> } = await http.request<Record<string, unknown>>({ path });
    const items = Array.isArray(data[listKey]) ? (data[listKey] as T[]) : [];
    collected.push(...items.slice(0, max - collected.length));
    path = typeof data.next_page_uri === 'string' && data.next_page_uri !== '' ? data.next_page_uri : null;
  }
  return collected;
};

/** One of the account's numbers, by its SID. */
export const incomingNumber = async (ctx: AppContext<unknown>, phoneNumberSid: string) => {
  const path = accountPath(accountSidOf(ctx.auth), `/IncomingPhoneNumbers/${encodeURIComponent(phoneNumberSid)}.json`);
  const { data } = await ctx.http.request<IncomingPhoneNumber>({ path });
  return data;
};

const label = (number: IncomingPhoneNumber) =>
  [number.friendly_name, number.phone_number]
    .filter((part, i, all) => part && (i === 0 || part !== all[0]))
    .join(' - ');

/** A dropdown of the account's numbers that can do `capability` (all when none), valued by `valueFor`. */
export const listNumbers =
  (capability: 'sms' | 'voice' | null, valueFor: (number: IncomingPhoneNumber) => string) =>
  async (ctx: DraftContext) => {
    const numbers = await allPages<IncomingPhoneNumber>(
      ctx.http,
      `${accountPath(accountSidOf(ctx.auth), '/IncomingPhoneNumbers.json')}?PageSize=100`,
      'incoming_phone_numbers',
    );
    return numbers
      .filter((number) => capability === null || number.capabilities?.[capability] !== false)
      .map((number) => ({ name: label(number), value: valueFor(number) }));
  };
