import { type ArgumentMap, boolean, defineAction, dropdown, type InferParameters, text } from '../sdk/index.js';
import { callTelegram } from './api.js';

const chatId = text({
  label: 'Chat ID',
  required: true,
  acceptsVariables: true,
  description: 'The chat’s id (a number, e.g. from the trigger’s message.chat.id) or a channel as @channelusername.',
});

const parseMode = dropdown({
  label: 'Parse Mode',
  acceptsVariables: true,
  description: 'How Telegram formats the text; plain text when empty.',
  options: [
    { label: 'Markdown', value: 'Markdown' },
    { label: 'MarkdownV2', value: 'MarkdownV2' },
    { label: 'HTML', value: 'HTML' },
  ],
});

const disableNotification = boolean({
  label: 'Disable notification?',
  default: false,
  acceptsVariables: true,
  description: 'Sends the message silently: users get a notification with no sound.',
});

const caption = text({ label: 'Caption', acceptsVariables: true, description: 'Up to 1024 characters.' });

/** A step that is one Bot API method whose body comes from the step's parameters; it answers the method's result. */
const methodAction = <const M extends ArgumentMap>(options: {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly method: string;
  readonly arguments: M;
  body(parameters: InferParameters<M>): Record<string, unknown>;
}) =>
  defineAction({
    key: options.key,
    name: options.name,
    description: options.description,
    arguments: options.arguments,
    run: (ctx) => callTelegram(ctx, options.method, options.body(ctx.parameters)),
  });

export const sendMessage = methodAction({
  key: 'sendMessage',
  name: 'Send message',
  description: 'Sends a text message to a chat you specify.',
  method: 'sendMessage',
  arguments: {
    chatId,
    text: text({ label: 'Message text', required: true, acceptsVariables: true, description: '1 to 4096 characters.' }),
    disableNotification,
    parseMode,
  },
  body: (p) => ({
    chat_id: p.chatId,
    text: p.text,
    disable_notification: p.disableNotification,
    parse_mode: p.parseMode,
  }),
});

export const sendPhoto = methodAction({
  key: 'sendPhoto',
  name: 'Send photo',
  description: 'Sends a photo, by its URL or a Telegram file_id, to a chat.',
  method: 'sendPhoto',
  arguments: {
    chatId,
    photo: text({
      label: 'Photo',
      required: true,
      acceptsVariables: true,
      description: 'An HTTP URL Telegram fetches (up to 5 MB), or the file_id of a photo the bot has seen.',
    }),
    caption,
    disableNotification,
    parseMode,
  },
  body: (p) => ({
    chat_id: p.chatId,
    photo: p.photo,
    caption: p.caption,
    disable_notification: p.disableNotification,
    parse_mode: p.parseMode,
  }),
});

export const sendDocument = methodAction({
  key: 'sendDocument',
  name: 'Send document',
  description: 'Sends a file, by its URL or a Telegram file_id, to a chat.',
  method: 'sendDocument',
  arguments: {
    chatId,
    document: text({
      label: 'Document',
      required: true,
      acceptsVariables: true,
      description: 'An HTTP URL Telegram fetches (up to 20 MB; PDF and ZIP by URL), or a file_id.',
    }),
    caption,
    disableNotification,
    parseMode,
  },
  body: (p) => ({
    chat_id: p.chatId,
    document: p.document,
    caption: p.caption,
    disable_notification: p.disableNotification,
    parse_mode: p.parseMode,
  }),
});
