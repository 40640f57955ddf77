import { describe, expect, it } from 'vitest';
import { parseFeed } from './feed.js';

const rss = (items: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>${extra}
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel><title>Blog</title><link>https://blog.test/</link>${items}</channel>
</rss>`;

describe('parseFeed: RSS 2.0', () => {
  it('reads items with ids, dates as ISO, content, authors and categories', () => {
    const items = parseFeed(
      rss(`
      <item>
        <title>Older &amp; wiser</title>
        <link>https://blog.test/older</link>
        <guid isPermaLink="false">00042</guid>
        <pubDate>Tue, 01 Aug 2023 09:00:00 +0200</pubDate>
        <description><![CDATA[<p>Intro &amp; more</p>]]></description>
        <content:encoded><![CDATA[<p>Full text</p>]]></content:encoded>
        <dc:creator>Ada</dc:creator>
        <category>news</category><category>tech</category>
      </item>
      <item>
        <title>It&#8217;s newer&nbsp;!</title>
        <link>https://blog.test/newer</link>
        <pubDate>Wed, 23 Aug 2023 12:00:00 GMT</pubDate>
        <category>news</category>
      </item>`),
    );
    expect(items).toEqual([
      {
        id: 'https://blog.test/newer',
        title: 'It’s newer\u00a0!',
        link: 'https://blog.test/newer',
        description: null,
        content: null,
        published: '2023-08-23T12:00:00.000Z',
        author: null,
        categories: ['news'],
      },
      {
        id: '00042',
        title: 'Older & wiser',
        link: 'https://blog.test/older',
        description: '<p>Intro &amp; more</p>',
        content: '<p>Full text</p>',
        published: '2023-08-01T07:00:00.000Z',
        author: 'Ada',
        categories: ['news', 'tech'],
      },
    ]);
  });

  it('keeps the feed order when an item has no date, and gives undated, linkless items a stable id', () => {
    const feed = rss(
      '<item><title>B</title><pubDate>Wed, 23 Aug 2023 12:00:00 GMT</pubDate></item><item><title>A</title></item>',
    );
    const first = parseFeed(feed);
    expect(first.map((i) => i.title)).toEqual(['B', 'A']);
    expect(first[1]?.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parseFeed(feed).map((i) => i.id)).toEqual(first.map((i) => i.id));
    expect(first[0]?.id).not.toBe(first[1]?.id);
  });

  it('reads an empty channel and RSS 1.0 (RDF)', () => {
    expect(parseFeed(rss(''))).toEqual([]);
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel rdf:about="https://old.test/"><title>Old</title></channel>
      <item rdf:about="https://old.test/1"><title>One</title><link>https://old.test/1</link><dc:date>2004-05-06T07:08:09Z</dc:date></item>
    </rdf:RDF>`;
    expect(parseFeed(rdf)).toMatchObject([
      { id: 'https://old.test/1', title: 'One', published: '2004-05-06T07:08:09.000Z' },
    ]);
  });
});

describe('parseFeed: Atom', () => {
  it('reads entries with their id, alternate link, summary, content, author and categories', () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
    <feed xmlns="http://www.w3.org/2005/Atom">
      <title>Atom blog</title>
      <entry>
        <title type="html">First &lt;em&gt;post&lt;/em&gt;</title>
        <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a</id>
        <link rel="edit" href="https://atom.test/edit/1"/>
        <link rel="alternate" type="text/html" href="https://atom.test/1"/>
        <updated>2023-08-20T10:00:00Z</updated>
        <summary>Short</summary>
        <content type="html">&lt;p&gt;Long&lt;/p&gt;</content>
        <author><name>Grace</name></author>
        <category term="atom"/>
      </entry>
      <entry>
        <title>Second</title>
        <link href="https://atom.test/2"/>
        <published>2023-08-21T10:00:00+02:00</published>
        <updated>2023-08-22T10:00:00Z</updated>
      </entry>
    </feed>`;
    expect(parseFeed(atom)).toEqual([
      {
        id: 'https://atom.test/2',
        title: 'Second',
        link: 'https://atom.test/2',
        description: null,
        content: null,
        published: '2023-08-21T08:00:00.000Z',
        author: null,
        categories: [],
      },
      {
        id: 'urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a',
        title: 'First <em>post</em>',
        link: 'https://atom.test/1',
        description: 'Short',
        content: '<p>Long</p>',
        published: '2023-08-20T10:00:00.000Z',
        author: 'Grace',
        categories: ['atom'],
      },
    ]);
  });
});

describe('parseFeed: hostile and broken documents', () => {
  const lol = (n: number) => {
    const lines = [' <!ENTITY lol0 "lol">'];
    for (let i = 1; i <= n; i++) lines.push(` <!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
    return `<!DOCTYPE rss [\n${lines.join('\n')}\n]>`;
  };

  it('does not expand nested entity declarations (billion laughs)', () => {
    const started = Date.now();
    const [item] = parseFeed(rss(`<item><title>${'&lol9;'.repeat(100)}</title></item>`, lol(9)));
    expect(item?.title).toBe('&lol9;'.repeat(100));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('bounds what flat entity declarations expand to', () => {
    const big = `<!DOCTYPE rss [ <!ENTITY big "${'x'.repeat(9_000)}"> ]>`;
    expect(parseFeed(rss('<item><title>&big;&big;</title></item>', big))[0]?.title).toHaveLength(18_000);
    expect(() => parseFeed(rss(`<item><title>${'&big;'.repeat(200)}</title></item>`, big))).toThrow(
      /^The feed is not well-formed XML: .*limit exceeded/,
    );
  });

  it('refuses external entities', () => {
    const xxe = '<!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>';
    expect(() => parseFeed(rss('<item><title>&xxe;</title></item>', xxe))).toThrow(
      /^The feed is not well-formed XML: External entities are not supported/,
    );
  });

  it('names what it cannot read', () => {
    expect(() => parseFeed('<html><body>Not a feed</body></html>')).toThrow('The document is not an RSS or Atom feed.');
    expect(() => parseFeed('just text')).toThrow('The document is not an RSS or Atom feed.');
  });
});
