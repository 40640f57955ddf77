/**
 * The dependency rule of ARCHITECTURE.md §2. `npm run lint` fails on any violation.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'core/ imports only core/ and ports/, and no npm or Node package.',
      severity: 'error',
      from: { path: '^core/' },
      to: { pathNot: '^(core|ports)/' },
    },
    {
      name: 'core-layers-point-one-way',
      comment:
        'Inside core/, dependencies run application -> engine -> domain, policy, ports: the engine, the domain and the policies never import the application.',
      severity: 'error',
      from: { path: '^core/(engine|domain|policy)/' },
      to: { path: '^core/application/' },
    },
    {
      name: 'policy-imports-only-the-domain',
      severity: 'error',
      from: { path: '^core/policy/' },
      to: { path: '^core/engine/' },
    },
    {
      name: 'domain-stands-alone',
      comment: 'core/domain imports only itself (and no package or Node module, by core-is-pure).',
      severity: 'error',
      from: { path: '^core/domain/' },
      to: { pathNot: '^core/domain/' },
    },
    {
      name: 'ports-import-only-core-domain-types',
      comment: 'ports/ imports only ports/ and types from core/domain.',
      severity: 'error',
      from: { path: '^ports/' },
      to: { pathNot: '^(ports/|core/domain/)' },
    },
    {
      name: 'ports-import-types-only',
      severity: 'error',
      from: { path: '^ports/' },
      to: { path: '^core/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-do-not-import-each-other',
      comment:
        'An adapter imports ports, core and its own subtree; the app SDK is shared by apps only. adapters/packaged-files.ts, where a packaged program says where its files are, and adapters/ordered-ids.ts, the time-ordered ids of records and jobs, are shared by all.',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/' },
      to: {
        path: '^adapters/',
        pathNot: ['^adapters/$1/', '^adapters/packaged-files\\.ts$', '^adapters/ordered-ids\\.ts$'],
      },
    },
    {
      name: 'cli-never-imports-http',
      comment:
        'The CLI (adapters/cli) is a driving adapter of its own: it calls the use cases and holds input to the domain rules, never to an HTTP schema, error table or route. Said on its own, apart from adapters-do-not-import-each-other, so that the two edges stay apart whatever exceptions that rule may gain.',
      severity: 'error',
      from: { path: '^adapters/cli/' },
      to: { path: '^adapters/http/' },
    },
    {
      name: 'web-console-talks-only-to-the-public-api',
      comment:
        'The browser console (adapters/web/console) reaches the server only over REST: it imports its own files and its UI stack (preact, preact-iso, and CodeMirror 6 with its parsers for the step form editors), never core, ports, another adapter or Node.',
      severity: 'error',
      from: { path: '^adapters/web/console/' },
      to: {
        pathNot: [
          '^adapters/web/console/',
          'node_modules/(preact|preact-iso|@codemirror/[^/]+|@lezer/[^/]+|style-mod|w3c-keyname|crelt|@panzoom/panzoom)/',
        ],
      },
    },
    {
      name: 'web-server-serves-the-built-console-only',
      comment: 'The server side of adapters/web serves the built files; it never imports the console sources.',
      severity: 'error',
      from: { path: '^adapters/web/', pathNot: '^adapters/web/console/' },
      to: { path: '^adapters/web/console/' },
    },
    {
      name: 'only-composition-builds-the-graph',
      comment: 'Nothing outside composition/ imports it.',
      severity: 'error',
      from: { pathNot: '^composition/' },
      to: { path: '^composition/' },
    },
    {
      name: 'di-container-only-in-composition',
      severity: 'error',
      from: { pathNot: '^composition/' },
      to: { path: 'node_modules/(tsyringe|reflect-metadata)/' },
    },
    {
      name: 'production-does-not-import-tests',
      severity: 'error',
      from: { pathNot: '(^test/|\\.test\\.ts$)' },
      to: { path: '(^test/|\\.test\\.ts$)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.test\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
