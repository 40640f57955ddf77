import { defineApp } from '../sdk/index.js';
import { trelloAuth } from './auth.js';
import { addCommentToCard, moveCard } from './card-actions.js';
import { createCard } from './create-card.js';
import { trelloDynamicData } from './dynamic-data.js';
import { icon } from './icon.js';
import { newActivity } from './instant.js';
import { cardMovedToList, newCard, newComment } from './triggers.js';

export const trello = defineApp({
  key: 'trello',
  name: 'Trello',
  description: 'Create, move and comment on cards, and start flows from new cards and comments on Trello boards.',
  icon,
  primaryColor: '#0079bf',
  categories: ['productivity'],
  version: 1,
  auth: trelloAuth,
  triggers: [newCard, newComment, cardMovedToList, newActivity],
  actions: [createCard, moveCard, addCommentToCard],
  dynamicData: trelloDynamicData,
  http: { baseUrl: 'https://api.trello.com/1', headers: { accept: 'application/json' } },
});
