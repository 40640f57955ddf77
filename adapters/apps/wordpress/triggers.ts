import { dropdown, dynamicDropdown, pollingTrigger } from '../sdk/index.js';
import { wpRequest } from './rest.js';

/** The 100 newest entries of a collection (by date), each with its id. */
const newest = (route: string, status: string) =>
  wpRequest(route, { per_page: 100, orderby: 'date', order: 'desc', status });

const postStatus = dynamicDropdown({ label: 'Status', required: true, dynamicData: 'listStatuses' });

/** Posts and pages: the same trigger over another collection. */
const newOfStatus = (key: string, name: string, route: string, noun: string) =>
  pollingTrigger({
    key,
    name,
    description: `Starts the flow when a ${noun} with the status chosen appears.`,
    arguments: { status: postStatus },
    request: (p) => newest(route, p.status),
    items: '',
    id: (entry) => entry.id,
  });

export const newPost = newOfStatus('newPost', 'New post', '/wp/v2/posts', 'post');
export const newPage = newOfStatus('newPage', 'New page', '/wp/v2/pages', 'page');

export const newComment = pollingTrigger({
  key: 'newComment',
  name: 'New comment',
  description: 'Starts the flow when a comment with the status chosen appears.',
  arguments: {
    status: dropdown({
      label: 'Status',
      required: true,
      options: [
        { label: 'Approved', value: 'approve' },
        { label: 'Awaiting approval', value: 'hold' },
        { label: 'Spam', value: 'spam' },
        { label: 'Trash', value: 'trash' },
      ],
    }),
  },
  request: (p) => newest('/wp/v2/comments', p.status),
  items: '',
  id: (comment) => comment.id,
});
