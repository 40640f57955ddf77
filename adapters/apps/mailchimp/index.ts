import { defineApp } from '../sdk/index.js';
import { newSubscribers, newUnsubscribers } from './audience-events.js';
import { mailchimpApi, mailchimpAuth } from './auth.js';
import { createCampaign } from './create-campaign.js';
import { emailOpened } from './email-opened.js';
import { icon } from './icon.js';
import { listAudiences, listCampaigns, listSegmentsOrTags, listTemplates } from './lists.js';
import { sendCampaign } from './send-campaign.js';
import { addOrUpdateSubscriber, addTagsToSubscriber } from './subscriber-actions.js';

export const mailchimp = defineApp({
  key: 'mailchimp',
  name: 'Mailchimp',
  description: 'Manage Mailchimp audiences and campaigns, and start flows from what recipients do.',
  icon,
  primaryColor: '#ffe01b',
  categories: ['marketing'],
  version: 1,
  auth: mailchimpAuth,
  triggers: [emailOpened, newSubscribers, newUnsubscribers],
  actions: [createCampaign, sendCampaign, addOrUpdateSubscriber, addTagsToSubscriber],
  dynamicData: { listAudiences, listCampaigns, listSegmentsOrTags, listTemplates },
  // Each account's API is at its own data centre, which the connection learnt when it was made.
  http: { connectionBaseUrl: mailchimpApi },
});
