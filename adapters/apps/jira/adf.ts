/**
 * Plain text as an Atlassian Document Format document, which Jira's REST API v3 takes for
 * descriptions and comments: one paragraph per block of lines, its lines joined by hard breaks.
 */
export const adf = (text: string) => ({
  type: 'doc',
  version: 1,
  content: text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => ({
      type: 'paragraph',
      content: block
        .split('\n')
        .flatMap((line, i) => [
          ...(i > 0 ? [{ type: 'hardBreak' }] : []),
          ...(line === '' ? [] : [{ type: 'text', text: line }]),
        ]),
    })),
});
