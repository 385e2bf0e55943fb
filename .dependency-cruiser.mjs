// The architecture of mcp42, as rules `npm test` checks (with dependency-cruiser, type imports
// included). Read LAYERS from the bottom up: each layer is built only on the layers below it.
// Folders in one layer are peers: they never import each other.

/** The layers of `src/`, lowest first. An import may point down this list, never up or sideways. */
const LAYERS = [
  {
    name: 'protocol',
    paths: ['src/protocol/'],
    why: 'MCP itself: JSON-RPC codec, errors, versions, the pure dispatcher. No Nest, no node:, no I/O (rule below).',
  },
  {
    name: 'constants',
    paths: ['src/mcp\\.constants\\.ts$', 'src/mcp\\.messages\\.ts$'],
    why: 'Metadata keys, injection tokens, header names, limits, message builders: shared by every layer above.',
  },
  { name: 'errors', paths: ['src/errors/'], why: 'The public error classes, one per file.' },
  {
    name: 'interfaces',
    paths: ['src/interfaces/'],
    why: 'Options, McpContext, the session handle, ports (the event store): types every service names.',
  },
  {
    name: 'in-process',
    paths: ['src/in-process/'],
    why: "Requests to the application's own HTTP server through connections in memory: the testing kit's, and route-backed tools'.",
  },
  {
    name: 'schemas, content and sealing',
    paths: ['src/schemas/', 'src/content/', 'src/sealing/'],
    why:
      'DTO -> JSON Schema and Ajv validation, compiled once; content-block builders and checks; sealing what ' +
      'clients hand back (requestState, cursors) with one secret per deployment.',
  },
  {
    name: 'session',
    paths: ['src/session/'],
    why: '2025-era sessions: calls in flight, streams, outbox, event ids, requests to the client, the idle sweep.',
  },
  {
    name: 'execution',
    paths: ['src/execution/'],
    why: 'ONE call lifecycle for every kind of item (admission, arguments, handler, answers), Nest pipelines (ExternalContextCreator, context type mcp), McpContext.',
  },
  {
    name: 'tasks',
    paths: ['src/tasks/'],
    why:
      'Tasks of both eras: the task store (in memory by default), the runs of this process (their abort, input ' +
      'requests, progress), the service behind the tasks methods. Below the kinds: a tool call becomes a task here.',
  },
  {
    name: 'guards',
    paths: ['src/guards/'],
    why: 'McpScopesGuard and the default scopesOf, on the MCP execution context.',
  },
  {
    name: 'decorators and items',
    paths: ['src/decorators/', 'src/items/'],
    why: 'What users put on methods; what every kind of item shares: the item store (keys, runtime changes in bursts), completers, definition checks.',
  },
  {
    name: 'kinds',
    paths: ['src/tools/', 'src/resources/', 'src/prompts/'],
    why: 'What each kind adds to the lifecycle: its store, definitions, argument checks, result mapping, answers.',
  },
  {
    name: 'routes',
    paths: ['src/routes/'],
    why: 'Controller routes served as tools (@McpRoute()): their Nest route metadata read, their flat input built, calls run in process through the HTTP handler.',
  },
  {
    name: 'completion',
    paths: ['src/completion/'],
    why: 'completion/complete, about the prompts and templates of the kinds below.',
  },
  {
    name: 'notifications',
    paths: ['src/notifications/'],
    why: 'Changes fanned out: the change bus (in process, or across instances), list_changed and resource updates to 2025 sessions.',
  },
  {
    name: 'dispatch',
    paths: ['src/dispatch/'],
    why: "The dispatcher's port: the request router sends each decoded message to the kinds; capabilities; lists in pages with sealed cursors; 2026-07-28 listen streams.",
  },
  {
    name: 'edges',
    paths: ['src/http/', 'src/stdio/', 'src/discovery/', 'src/registries/'],
    why: 'What meets the outside: HTTP (raw req/res: the door, requests, responses, the eras), stdio (JSON-RPC lines on stdin/stdout), the scan of decorated methods at bootstrap, and the thin public registries.',
  },
  {
    name: 'module',
    paths: [
      'src/mcp-options\\.[a-z]+\\.ts$',
      'src/mcp\\.module-definition\\.ts$',
      'src/mcp\\.module\\.ts$',
      'src/index\\.ts$',
    ],
    why: 'Options and their defaults, the Nest module that wires it all, and index.ts, the curated public API.',
  },
  {
    name: 'adapters',
    paths: ['src/redis/', 'src/oauth/', 'src/testing/', 'src/otel/', 'src/terminus/'],
    why:
      'Optional integrations behind subpath exports: shared state on Redis (mcp42/redis, the internal port of ' +
      'src/interfaces), the OAuth resource server (mcp42/oauth), the testing kit (mcp42/testing), OpenTelemetry ' +
      '(mcp42/otel, the telemetry port of src/interfaces) and the Terminus health indicator (mcp42/terminus); ' +
      'nothing else in src imports them.',
  },
];

/** One regular expression for the files under any of `paths`. */
const union = (paths) => `^(${paths.join('|')})`;

/** Per layer: nothing above it, and no peer folder of the same layer. */
const layerRules = LAYERS.flatMap((layer, index) => {
  const above = LAYERS.slice(index + 1).flatMap((upper) => upper.paths);
  const rules = [];
  if (above.length > 0) {
    rules.push({
      name: `layer-${layer.name.replace(/\W+/g, '-')}`,
      comment: `${layer.name}: ${layer.why} It may not import what stands above it.`,
      severity: 'error',
      from: { path: union(layer.paths) },
      to: { path: union(above) },
    });
  }
  // Peers are folders; the files of one layer (the constants, the module) build on each other freely.
  const folders = layer.paths.filter((path) => path.endsWith('/'));
  for (const path of folders) {
    const peers = folders.filter((other) => other !== path);
    if (peers.length === 0) continue;
    rules.push({
      name: `peers-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '')}`,
      comment: `${path} is a peer of ${peers.join(', ')} in the ${layer.name} layer: peers never import each other.`,
      severity: 'error',
      from: { path: union([path]) },
      to: { path: union(peers) },
    });
  }
  return rules;
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'protocol-is-pure',
      comment: 'src/protocol/ imports nothing but itself: no other folder of ours, no Nest, no node:, no package.',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { pathNot: '^src/protocol/' },
    },
    ...layerRules,
    {
      name: 'no-unlisted-source',
      comment: 'Every file of src/ belongs to a layer: a new folder is placed in LAYERS before anything uses it.',
      severity: 'error',
      from: {},
      to: { path: '^src/', pathNot: union(LAYERS.flatMap((layer) => layer.paths)) },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No cycle between the folders of src/, whatever the layers say.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      comment: 'No cycle between the files of src/ either.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-not-to-dev-dependencies',
      comment:
        'What src/ imports ships to users: a package only in devDependencies would be missing there. Runtime ' +
        'dependencies and peers only.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['npm', 'npm-peer', 'npm-optional'] },
    },
    {
      name: 'ioredis-in-the-adapter-only',
      comment: 'Redis stays an optional peer: only the adapter behind mcp42/redis names ioredis (and only its types).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/redis/' },
      to: { path: 'node_modules/ioredis/' },
    },
    {
      name: 'jose-in-the-oauth-adapter-only',
      comment: 'jose stays an optional peer: only the resource server behind mcp42/oauth imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/oauth/' },
      to: { path: 'node_modules/jose/' },
    },
    {
      name: 'opentelemetry-in-the-otel-adapter-only',
      comment:
        '@opentelemetry/api stays an optional peer: only the adapter behind mcp42/otel imports it; the core ' +
        'records through the telemetry port of src/interfaces, a no-op without it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/otel/' },
      to: { path: 'node_modules/@opentelemetry/' },
    },
    {
      name: 'terminus-in-the-terminus-adapter-only',
      comment: '@nestjs/terminus stays an optional peer: only the health indicator behind mcp42/terminus imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/terminus/' },
      to: { path: 'node_modules/@nestjs/terminus/' },
    },
    {
      name: 'sdk-in-the-testing-kit-only',
      comment:
        'The official SDK stays an optional peer: only the testing kit behind mcp42/testing imports it (its Client ' +
        'is what createMcpTestClient returns).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/testing/' },
      to: { path: 'node_modules/@modelcontextprotocol/' },
    },
    {
      name: 'src-not-to-tests',
      comment: 'The library never reaches into the tests, the sample app or the benchmarks.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|sample-app|bench)/' },
    },
    {
      name: 'test-internals-for-tests-only',
      comment: "test/internals/ opens the library's internals to tests; nothing else may go through it.",
      severity: 'error',
      from: { pathNot: '^(test|src)/' },
      to: { path: '^test/internals/' },
    },
    {
      name: 'public-api-only',
      comment:
        'The sample app and the tests use mcp42 as users do: through src/index.ts (and the index.ts of the ' +
        'subpath exports mcp42/protocol, mcp42/redis, mcp42/oauth, mcp42/testing, mcp42/otel and mcp42/terminus). ' +
        'Unit specs beside the source, and the helpers in test/internals/ for tests that read internal state, are ' +
        'the tests of internals.',
      severity: 'error',
      from: { path: '^(sample-app|test)/', pathNot: '^test/internals/' },
      to: { path: '^src/', pathNot: '^src/(protocol/|redis/|oauth/|testing/|otel/|terminus/)?index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Unit specs beside the source test internals by design; they are not part of its architecture.
    exclude: { path: ['^(dist|coverage)/', '^src/.*\\.spec\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
