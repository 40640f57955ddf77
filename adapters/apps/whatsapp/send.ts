import {
  type AppContext,
  boolean,
  defineAction,
  dropdown,
  dynamicDropdown,
  type KeyValue,
  keyValueList,
  segment,
  text,
} from '../sdk/index.js';
import { connectionOf } from './auth.js';
import { graph } from './graph.js';

const to = text({
  label: 'To',
  required: true,
  acceptsVariables: true,
  description: 'The recipient’s WhatsApp number with its country code, digits only or +: 4915112345678.',
});

/** Sends one message from the connection's number; Meta answers the recipient and the message id. */
const send = (ctx: AppContext<unknown>, recipient: string, message: Record<string, unknown>) =>
  graph(ctx, {
    method: 'POST',
    path: `/${segment(connectionOf(ctx.auth).phoneNumberId)}/messages`,
    body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: recipient.trim(), ...message },
  });

export const sendTextMessage = defineAction({
  key: 'sendTextMessage',
  name: 'Send text message',
  description:
    'Sends a text message. WhatsApp delivers free-form text only within 24 hours of the person’s last message; otherwise send a template.',
  arguments: {
    to,
    text: text({ label: 'Text', required: true, acceptsVariables: true, description: 'Up to 4096 characters.' }),
    previewUrl: boolean({ label: 'Preview links', default: false, description: 'Shows a preview of the first URL.' }),
  },
  run: (ctx) =>
    send(ctx, ctx.parameters.to, {
      type: 'text',
      text: { body: ctx.parameters.text, preview_url: ctx.parameters.previewUrl },
    }),
});

/** `1`, `2`... fill a template's numbered placeholders in order; a name fills `{{name}}`. */
const templateParameters = (rows: readonly KeyValue[]) =>
  rows.map((row) =>
    /^\d+$/.test(row.key.trim())
      ? { type: 'text', text: row.value }
      : { type: 'text', parameter_name: row.key.trim(), text: row.value },
  );

export const sendTemplateMessage = defineAction({
  key: 'sendTemplateMessage',
  name: 'Send template message',
  description: 'Sends an approved message template, the only kind WhatsApp delivers outside a 24-hour conversation.',
  arguments: {
    to,
    templateName: dynamicDropdown({
      label: 'Template',
      required: true,
      dynamicData: 'listTemplates',
      acceptsVariables: true,
    }),
    languageCode: text({
      label: 'Language',
      required: true,
      default: 'en_US',
      acceptsVariables: true,
      description: 'The template’s language code, as approved: en_US, de, pt_BR...',
    }),
    bodyParameters: keyValueList({
      label: 'Body parameters',
      acceptsVariables: true,
      description: 'The values of the body’s placeholders: keys 1, 2... for {{1}}, {{2}}, or the names of named ones.',
    }),
  },
  run: (ctx) => {
    const parameters = templateParameters(ctx.parameters.bodyParameters ?? []);
    return send(ctx, ctx.parameters.to, {
      type: 'template',
      template: {
        name: ctx.parameters.templateName,
        language: { code: ctx.parameters.languageCode },
        ...(parameters.length > 0 && { components: [{ type: 'body', parameters }] }),
      },
    });
  },
});

export const sendMediaMessage = defineAction({
  key: 'sendMediaMessage',
  name: 'Send media message',
  description: 'Sends an image, a document, a video or an audio file that WhatsApp fetches from a public URL.',
  arguments: {
    to,
    mediaType: dropdown({
      label: 'Type',
      required: true,
      default: 'image',
      options: [
        { label: 'Image', value: 'image' },
        { label: 'Document', value: 'document' },
        { label: 'Video', value: 'video' },
        { label: 'Audio', value: 'audio' },
      ],
    }),
    link: text({ label: 'Media URL', required: true, acceptsVariables: true, description: 'An https address.' }),
    caption: text({ label: 'Caption', acceptsVariables: true, description: 'Not shown for audio.' }),
    filename: text({ label: 'File name', acceptsVariables: true, description: 'Documents only: the name shown.' }),
  },
  run: (ctx) => {
    const { mediaType, link, caption, filename } = ctx.parameters;
    return send(ctx, ctx.parameters.to, {
      type: mediaType,
      [mediaType]: {
        link,
        ...(caption && mediaType !== 'audio' && { caption }),
        ...(filename && mediaType === 'document' && { filename }),
      },
    });
  },
});
