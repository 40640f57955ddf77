import { defineApp } from '../sdk/index.js';
import { wordpressAuth } from './auth.js';
import { createUser } from './create-user.js';
import { icon } from './icon.js';
import { listCategories, listMedia, listPosts, listStatuses, listTags, listUsers } from './lists.js';
import { createPost, deletePost, findPost, updatePost } from './post-actions.js';
import { newComment, newPage, newPost } from './triggers.js';

export const wordpress = defineApp({
  key: 'wordpress',
  name: 'WordPress',
  description:
    'Publish and find posts, add users, and start flows from new posts, pages and comments on a WordPress site.',
  icon,
  primaryColor: '#464342',
  categories: ['marketing', 'productivity'],
  version: 1,
  auth: wordpressAuth,
  triggers: [newComment, newPage, newPost],
  actions: [createPost, createUser, deletePost, findPost, updatePost],
  dynamicData: { listCategories, listMedia, listPosts, listStatuses, listTags, listUsers },
  // Each connection names its own site.
  http: { connectionBaseUrl: (auth) => wordpressAuth.read(auth).instanceUrl.replace(/\/+$/, '') },
});
