import { defineTrigger, httpUrl, text } from '../sdk/index.js';
import { parseFeed } from './feed.js';

export const newItemsInFeed = defineTrigger({
  key: 'newItemsInFeed',
  name: 'New items in feed',
  description: 'Polls an RSS or Atom feed and starts the flow for each item not seen before.',
  type: 'polling',
  arguments: {
    feedUrl: text({ label: 'Feed URL', required: true, placeholder: 'https://example.com/feed.xml', check: httpUrl }),
  },
  async run(ctx) {
    const { data } = await ctx.http.request({
      url: ctx.parameters.feedUrl,
      headers: {
        accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5',
      },
    });
    if (typeof data !== 'string') throw new Error('The feed URL did not answer with an XML document.');
    // Every item is returned: the engine keeps those whose id it has not seen for this flow.
    return parseFeed(data).map((item) => ({ id: item.id, data: item }));
  },
});
