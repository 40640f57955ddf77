import { type AuthAccess, bearerHeader, fieldsAuth, matches, segment, text } from '../sdk/index.js';
import { graph } from './graph.js';

const numericId = (what: string) => matches(/^\d{5,25}$/, `must be a ${what}: digits only.`);

/**
 * A token of the Meta app that has the WhatsApp product (a system user's, which does not expire),
 * and the ids of the business number it sends from and of its WhatsApp Business Account.
 */
export const whatsappAuth = fieldsAuth({
  fields: {
    accessToken: text({
      label: 'Access token',
      required: true,
      secret: true,
      description:
        'A system user’s token with whatsapp_business_messaging and whatsapp_business_management (Business Settings, System users).',
    }),
    phoneNumberId: text({
      label: 'Phone number ID',
      required: true,
      description: 'WhatsApp Manager or the app’s WhatsApp "API Setup": the ID of the number to send from.',
      check: numericId('phone number ID'),
    }),
    businessAccountId: text({
      label: 'WhatsApp Business Account ID',
      required: true,
      description: 'Beside the phone number ID; its message templates are listed from it.',
      check: numericId('WhatsApp Business Account ID'),
    }),
    appSecret: text({
      label: 'App secret',
      secret: true,
      description:
        'The Meta app’s secret (App settings, Basic): it checks that deliveries to the triggers come from Meta. Only the triggers need it.',
    }),
  },
  headers: (data) => bearerHeader(data.accessToken),
  async verify(ctx) {
    const number = await graph<{ display_phone_number?: string; verified_name?: string }>(ctx, {
      path: `/${segment(ctx.auth.data.phoneNumberId)}`,
      query: { fields: 'display_phone_number,verified_name' },
    });
    return { screenName: [number.verified_name, number.display_phone_number].filter(Boolean).join(' ') || null };
  },
});

export const connectionOf = (auth: Pick<AuthAccess, 'data'>) => whatsappAuth.read(auth);
