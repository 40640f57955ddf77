import { boolean, defineAction, dynamicDropdown, restAction, segment, text } from '../sdk/index.js';
import { postArguments, postBody } from './post-arguments.js';
import { wpRequest } from './rest.js';

const postId = dynamicDropdown({ label: 'Post', required: true, dynamicData: 'listPosts', acceptsVariables: true });
const postRoute = (id: string) => `/wp/v2/posts/${segment(id)}`;

export const createPost = restAction({
  key: 'createPost',
  name: 'Create post',
  description: 'Creates a post and returns it.',
  arguments: postArguments,
  request: (p) => ({ method: 'POST', ...wpRequest('/wp/v2/posts'), body: postBody(p) }),
});

export const updatePost = restAction({
  key: 'updatePost',
  name: 'Update post',
  description: 'Changes the fields given of a post (the others stay) and returns it.',
  arguments: { postId, ...postArguments },
  request: (p) => ({ method: 'POST', ...wpRequest(postRoute(p.postId)), body: postBody(p) }),
});

export const deletePost = restAction({
  key: 'deletePost',
  name: 'Delete post',
  description: 'Moves a post to the trash, or deletes it for good.',
  arguments: {
    postId,
    force: boolean({ label: 'Delete for good', default: false, description: 'Skip the trash.' }),
  },
  request: (p) => ({ method: 'DELETE', ...wpRequest(postRoute(p.postId), p.force ? { force: true } : {}) }),
});

export const findPost = defineAction({
  key: 'findPost',
  name: 'Find post',
  description: 'Finds the post whose title best matches, whatever its status.',
  arguments: { title: text({ label: 'Post title', required: true, acceptsVariables: true }) },
  async run(ctx) {
    const { data } = await ctx.http.request<readonly Record<string, unknown>[]>(
      wpRequest('/wp/v2/posts', {
        search: ctx.parameters.title,
        search_columns: 'post_title',
        per_page: 1,
        orderby: 'relevance',
        status: 'publish,future,draft,pending,private',
      }),
    );
    const [post] = data;
    return post ? { found: true, ...post } : { found: false };
  },
});
