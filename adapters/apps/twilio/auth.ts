import { basicHeader, fieldsAuth, matches, segment, text } from '../sdk/index.js';

/** Every resource of Twilio's REST API lives under the account. */
export const accountPath = (accountSid: string, rest: string) => `/2010-04-01/Accounts/${segment(accountSid)}${rest}`;

/** The Account SID and Auth Token as HTTP basic credentials, as Twilio's REST API takes them. */
export const twilioAuth = fieldsAuth({
  fields: {
    accountSid: text({
      label: 'Account SID',
      required: true,
      description: 'On the Twilio Console home page, under "Account Info" (AC followed by 32 characters).',
      check: matches(/^AC\w{32}$/, 'must be an Account SID: AC followed by 32 characters.'),
    }),
    authToken: text({
      label: 'Auth Token',
      required: true,
      secret: true,
      description: 'Beside the Account SID on the Twilio Console.',
    }),
  },
  headers: (data) => basicHeader(data.accountSid, data.authToken),
  async verify(ctx) {
    const { data } = await ctx.http.request<{ sid: string; friendly_name?: string | null }>({
      path: accountPath(ctx.auth.data.accountSid, '.json'),
    });
    return { screenName: data.friendly_name || data.sid };
  },
});

export const accountSidOf = (auth: Parameters<typeof twilioAuth.read>[0]) => twilioAuth.read(auth).accountSid;
