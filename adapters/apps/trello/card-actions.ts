import { restAction, segment, text } from '../sdk/index.js';
import { boardId, cardPosition, listId } from './create-card.js';

const cardId = text({
  label: 'Card',
  required: true,
  description: "The card's id or short link (a trigger's `id`, or the code in the card's URL).",
  acceptsVariables: true,
});

export const moveCard = restAction({
  key: 'moveCard',
  name: 'Move card',
  description: 'Moves a card to a list, on its board or another.',
  arguments: { cardId, boardId, listId, cardPosition },
  request: (p) => ({
    method: 'PUT',
    path: `/cards/${segment(p.cardId)}`,
    body: { idBoard: p.boardId, idList: p.listId, pos: p.cardPosition },
  }),
});

export const addCommentToCard = restAction({
  key: 'addCommentToCard',
  name: 'Add comment to card',
  description: 'Comments on a card; the output is the comment action Trello records.',
  arguments: { cardId, text: text({ label: 'Comment', required: true, acceptsVariables: true }) },
  // Trello documents the comment's text as a query parameter of this call.
  request: (p) => ({ method: 'POST', path: `/cards/${segment(p.cardId)}/actions/comments`, query: { text: p.text } }),
});
