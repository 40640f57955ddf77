import { microsoftOAuth2 } from '../microsoft-common/index.js';

/**
 * Teams and channels the user is in, their messages (ChannelMessage.Read.All needs an
 * administrator's consent in the tenant), the user's chats, and new channels.
 */
export const teamsAuth = microsoftOAuth2([
  'Team.ReadBasic.All',
  'Channel.ReadBasic.All',
  'Channel.Create',
  'ChannelMessage.Read.All',
  'ChannelMessage.Send',
  'Chat.ReadWrite',
]);
