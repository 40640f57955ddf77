import { defineTrigger, dynamicDropdown } from '../sdk/index.js';
import { accountPath, accountSidOf } from './auth.js';
import { incomingNumber } from './phone-numbers.js';

interface Call {
  readonly sid: string;
  readonly date_created?: string | null;
}

const createdAt = (call: Call) => Date.parse(call.date_created ?? '') || 0;

export const newCall = defineTrigger({
  key: 'newCall',
  name: 'New call',
  description: 'Starts the flow for each call to one of the account’s numbers.',
  type: 'polling',
  arguments: {
    phoneNumberSid: dynamicDropdown({
      label: 'To Number',
      required: true,
      dynamicData: 'listPhoneNumberSids',
      description: 'The Twilio number that receives the calls.',
    }),
  },
  async run(ctx) {
    const number = await incomingNumber(ctx, ctx.parameters.phoneNumberSid);
    const { data } = await ctx.http.request<{ calls?: Call[] }>({
      path: accountPath(accountSidOf(ctx.auth), '/Calls.json'),
      query: { To: number.phone_number, PageSize: 50 },
    });
    return [...(data.calls ?? [])]
      .sort((a, b) => createdAt(b) - createdAt(a))
      .map((call) => ({ id: call.sid, data: call }));
  },
});
