import { restAction, segment } from '../sdk/index.js';
import { messageId } from './arguments.js';
import { ME } from './gmail.js';

export const sendToTrash = restAction({
  key: 'sendToTrash',
  name: 'Send to trash',
  description: 'Send an existing email message to the trash.',
  arguments: { messageId },
  request: (p) => ({ method: 'POST', path: `${ME}/messages/${segment(p.messageId)}/trash` }),
});

export const starEmail = restAction({
  key: 'starEmail',
  name: 'Star an email',
  description: 'Star an email message.',
  arguments: { messageId },
  request: (p) => ({
    method: 'POST',
    path: `${ME}/messages/${segment(p.messageId)}/modify`,
    body: { addLabelIds: ['STARRED'] },
  }),
});
