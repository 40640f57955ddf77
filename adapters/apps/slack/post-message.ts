import {
  type AppContext,
  type DynamicFieldsHandler,
  defineAction,
  describeArguments,
  dropdown,
  dynamicDropdown,
  parseParameters,
  text,
} from '../sdk/index.js';
import { callSlack } from './api.js';

const message = text({
  label: 'Message text',
  required: true,
  acceptsVariables: true,
  description: 'The content of your new message; Slack’s mrkdwn applies.',
});

const sendAsBot = dropdown({
  label: 'Send as a bot?',
  default: false,
  acceptsVariables: true,
  description:
    'No: the message comes from the member who connected Slack. Yes: from the app’s bot, under the name you give.',
  options: [
    { label: 'Yes', value: true },
    { label: 'No', value: false },
  ],
});

/** The bot's name and icon for one message, when it is sent as the bot. */
const botFields = {
  botName: text({
    label: 'Bot name',
    required: true,
    default: 'Conveyor',
    acceptsVariables: true,
    description: 'The name shown in bold above the message.',
  }),
  botIcon: text({
    label: 'Bot icon',
    acceptsVariables: true,
    description: 'An image URL, or an emoji of your workspace between colons: :robot_face:',
  }),
};

const asBot = (value: unknown) => value === true || value === 'true';

export const listFieldsAfterSendAsBot: DynamicFieldsHandler = async (ctx) =>
  asBot(ctx.parameters.sendAsBot) ? describeArguments(botFields) : [];

const isUrl = (value: string) => URL.canParse(value) && /^https?:/i.test(value);

/** chat.postMessage, as the member or (renamed) as the bot; Slack's answer holds the message and its `ts`. */
const post = (ctx: AppContext<Readonly<Record<string, unknown>>>, channel: string, textValue: string) => {
  if (!asBot(ctx.parameters.sendAsBot)) {
    return callSlack(ctx, 'chat.postMessage', { body: { channel, text: textValue }, as: 'user' });
  }
  const { botName, botIcon } = parseParameters(botFields, ctx.parameters);
  return callSlack(ctx, 'chat.postMessage', {
    body: {
      channel,
      text: textValue,
      username: botName,
      ...(botIcon && (isUrl(botIcon) ? { icon_url: botIcon } : { icon_emoji: botIcon })),
    },
  });
};

export const sendMessageToChannel = defineAction({
  key: 'sendMessageToChannel',
  name: 'Send a message to channel',
  description: 'Sends a message to a channel you specify.',
  dynamicFieldsKey: 'listFieldsAfterSendAsBot',
  arguments: {
    channel: dynamicDropdown({
      label: 'Channel',
      required: true,
      dynamicData: 'listChannels',
      acceptsVariables: true,
      description: 'Pick a channel to send the message to.',
    }),
    message,
    sendAsBot,
  },
  run: (ctx) => post(ctx, ctx.parameters.channel, ctx.parameters.message),
});

export const sendDirectMessage = defineAction({
  key: 'sendDirectMessage',
  name: 'Send a direct message',
  description: 'Sends a direct message to a member, from the member who connected Slack or from the app’s bot.',
  dynamicFieldsKey: 'listFieldsAfterSendAsBot',
  arguments: {
    toUsername: dynamicDropdown({
      label: 'To username',
      required: true,
      dynamicData: 'listUsers',
      acceptsVariables: true,
      description: 'Pick a member to send the message to (a member ID).',
    }),
    message,
    sendAsBot,
  },
  // A member ID as the channel posts in the direct conversation with that member.
  run: (ctx) => post(ctx, ctx.parameters.toUsername, ctx.parameters.message),
});
