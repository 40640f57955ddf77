import { defineApp } from '../sdk/index.js';
import { intercomAuth, REGION_HOSTS } from './auth.js';
import { addTagToContact, createContact, updateContact } from './contact-actions.js';
import { listAdmins, listContacts, listTags } from './dynamic-data.js';
import { icon } from './icon.js';
import { replyToConversation, sendMessage } from './message-actions.js';
import { newContacts, newConversations } from './triggers.js';

export const intercom = defineApp({
  key: 'intercom',
  name: 'Intercom',
  description: 'Create and tag contacts, send messages and reply to conversations in Intercom.',
  icon,
  primaryColor: '#1f8ded',
  categories: ['support', 'communication'],
  version: 1,
  auth: intercomAuth,
  triggers: [newContacts, newConversations],
  actions: [createContact, updateContact, addTagToContact, sendMessage, replyToConversation],
  dynamicData: { listAdmins, listTags, listContacts },
  http: {
    baseUrl: REGION_HOSTS.us,
    // European and Australian workspaces have hosts of their own; the US one may be overridden.
    connectionBaseUrl: (auth) => {
      const { region } = intercomAuth.read(auth);
      return region === 'us' ? undefined : REGION_HOSTS[region];
    },
    headers: { 'intercom-version': '2.11', accept: 'application/json' },
  },
});
