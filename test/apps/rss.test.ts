import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInApps, createAppCatalog, type InProcessAppCatalog } from '../../adapters/apps/index.js';
import { BlockedAddressError } from '../../adapters/apps/sdk/index.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type LocalHttpServer, sendJson, startHttpServer } from './support/http-server.js';

const RSS = `<?xml version="1.0"?>
<rss version="2.0"><channel><title>Local</title>
  <item><title>First</title><link>http://feed.test/1</link><guid>item-1</guid><pubDate>Mon, 21 Aug 2023 10:00:00 GMT</pubDate></item>
  <item><title>Third</title><link>http://feed.test/3</link><guid>item-3</guid><pubDate>Wed, 23 Aug 2023 10:00:00 GMT</pubDate></item>
  <item><title>Second</title><link>http://feed.test/2</link><pubDate>Tue, 22 Aug 2023 10:00:00 GMT</pubDate></item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Local Atom</title>
  <entry><id>tag:feed.test,2023:a</id><title>Atom entry</title><link href="http://feed.test/a"/><updated>2023-08-23T10:00:00Z</updated></entry>
</feed>`;

let server: LocalHttpServer;
let catalog: InProcessAppCatalog;

beforeAll(async () => {
  server = await startHttpServer((request, res) => {
    switch (request.url) {
      case '/rss.xml':
        res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
        return void res.end(RSS);
      case '/atom.xml':
        res.writeHead(200, { 'content-type': 'application/atom+xml' });
        return void res.end(ATOM);
      case '/page.html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><body>hello</body></html>');
      case '/api':
        return sendJson(res, 200, { items: [] });
      default:
        return sendJson(res, 404, { message: 'No such feed' });
    }
  });
  catalog = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: true, logger: new CapturingLogger() });
});

afterAll(async () => {
  await catalog.close();
  await server.close();
});

const poll = (feedUrl: string, on: InProcessAppCatalog = catalog) =>
  on.runTrigger({ appKey: 'rss', key: 'newItemsInFeed', parameters: { feedUrl }, connection: null, execution: null });

describe('rss: newItemsInFeed', () => {
  it('is a polling trigger', () => {
    expect(catalog.find('rss')?.triggers[0]).toMatchObject({ key: 'newItemsInFeed', type: 'polling' });
  });

  it('returns an RSS feed’s items newest first, each with a stable id for deduplication', async () => {
    const items = await poll(`${server.url}/rss.xml`);
    expect(items.map((i) => i.id)).toEqual(['item-3', 'http://feed.test/2', 'item-1']);
    expect(items[0]).toEqual({
      id: 'item-3',
      data: expect.objectContaining({ id: 'item-3', title: 'Third', published: '2023-08-23T10:00:00.000Z' }),
    });
    expect((await poll(`${server.url}/rss.xml`)).map((i) => i.id)).toEqual(items.map((i) => i.id));
    expect(server.requests.at(-1)?.headers.accept).toMatch(/^application\/rss\+xml, application\/atom\+xml/);
  });

  it('reads Atom feeds', async () => {
    expect(await poll(`${server.url}/atom.xml`)).toEqual([
      {
        id: 'tag:feed.test,2023:a',
        data: expect.objectContaining({ title: 'Atom entry', link: 'http://feed.test/a' }),
      },
    ]);
  });

  it('says when the URL is not a feed', async () => {
    await expect(poll(`${server.url}/page.html`)).rejects.toThrow('The document is not an RSS or Atom feed.');
    await expect(poll(`${server.url}/api`)).rejects.toThrow('The feed URL did not answer with an XML document.');
    await expect(poll(`${server.url}/gone.xml`)).rejects.toMatchObject({ name: 'HttpError', status: 404 });
  });

  it('refuses a feed URL that is not http(s)', async () => {
    await expect(poll('ftp://feed.test/rss.xml')).rejects.toMatchObject({
      name: 'InvalidParametersError',
      fields: { feedUrl: ['must be an http or https URL.'] },
    });
  });

  it('cannot reach a loopback feed when the instance refuses private networks', async () => {
    const guarded = createAppCatalog({ apps: builtInApps, allowPrivateNetworks: false, logger: new CapturingLogger() });
    const before = server.requests.length;
    try {
      await expect(poll(`${server.url}/rss.xml`, guarded)).rejects.toBeInstanceOf(BlockedAddressError);
      expect(server.requests.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});
