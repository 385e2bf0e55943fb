/**
 * The public API as users get it: the declarations of the packed package (./packed-package.ts: the
 * CommonJS build's `.d.ts`, made with `stripInternal`, and the ES module wrapper's), read by a
 * consumer's compiler through the package's `exports` (or `types`, for `moduleResolution: node10`), in
 * every module setting a Nest app may have. The list below is the API report: adding, removing or
 * renaming an export of the package changes this test, on purpose.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { packedPackage, ROOT, type PackedPackage } from './packed-package.js';

/** Every name `import { … } from 'mcp42'` offers, sorted. */
const PUBLIC_API = [
  'AudioContent',
  'BinaryData',
  'BlobResourceContents',
  'CacheScope',
  'CallToolResult',
  'ClientCapabilities',
  'ContentAnnotations',
  'ContentBlock',
  'CreateMessageRequestParams',
  'CreateMessageResult',
  'ElicitRequestParams',
  'ElicitResult',
  'ElicitationSchema',
  'EmbeddedResource',
  'EmbeddedResourceOptions',
  'ErrorCode',
  'GetPromptResult',
  'Icon',
  'ImageContent',
  'Implementation',
  'JsonRpcError',
  'JsonRpcErrorObject',
  'JsonRpcParams',
  'JsonSchemaObject',
  'ListRootsResult',
  'LoggingLevel',
  'MCP_PUBLIC_METADATA',
  'MCP_SCOPES_METADATA',
  'MCP_SESSION',
  'McpArgs',
  'McpAuthOptions',
  'McpCacheHintOptions',
  'McpCacheOptions',
  'McpCallAbortKind',
  'McpCallAbortedError',
  'McpClientRequestError',
  'McpClientRequestOptions',
  'McpCompleter',
  'McpCompleters',
  'McpCompletion',
  'McpCompletionOptions',
  'McpCompletionRequest',
  'McpCompletionResult',
  'McpContext',
  'McpContextType',
  'McpCorsOptions',
  'McpCtx',
  'McpDefinitionError',
  'McpEra',
  'McpEras',
  'McpEventStore',
  'McpExecutionContext',
  'McpHttpOptions',
  'McpInsufficientScopeException',
  'McpItemKind',
  'McpLimitsOptions',
  'McpLogFunction',
  'McpModule',
  'McpModuleExtras',
  'McpModuleOptions',
  'McpParamHeader',
  'McpProgress',
  'McpPrompt',
  'McpPromptArgumentOptions',
  'McpPromptHandler',
  'McpPromptOptions',
  'McpPromptRegistry',
  'McpPublic',
  'McpResource',
  'McpResourceHandler',
  'McpResourceOptions',
  'McpResourceRegistry',
  'McpResourceTemplate',
  'McpResourceTemplateOptions',
  'McpResourceTemplateRegistry',
  'McpResumabilityOptions',
  'McpRoute',
  'McpRouteOptions',
  'McpRoutesOptions',
  'McpRuntimePromptOptions',
  'McpRuntimeResourceOptions',
  'McpRuntimeResourceTemplateOptions',
  'McpRuntimeToolOptions',
  'McpScopes',
  'McpServedItems',
  'McpSession',
  'McpSessionHandle',
  'McpSessionRegistry',
  'McpSessionsOptions',
  'McpState',
  'McpStateOptions',
  'McpStateUnavailableError',
  'McpStdioOptions',
  'McpStdioRequest',
  'McpStoredEvent',
  'McpTasksOptions',
  'McpTelemetry',
  'McpTool',
  'McpToolError',
  'McpToolHandler',
  'McpToolOptions',
  'McpToolRegistry',
  'McpTransportKind',
  'McpToolTaskOptions',
  'McpUri',
  'Meta',
  'PromptArgument',
  'PromptDefinition',
  'PromptMessage',
  'ReadResourceResult',
  'RequestId',
  'ResourceDefinition',
  'ResourceLink',
  'ResourceLinkInit',
  'ResourceTemplateDefinition',
  'Role',
  'Root',
  'SamplingMessage',
  'TextContent',
  'TextResourceContents',
  'ToolAnnotations',
  'ToolDefinition',
  'assistantMessage',
  'audio',
  'defaultPrincipalOf',
  'defaultScopesOf',
  'embeddedBlob',
  'embeddedText',
  'image',
  'resourceLink',
  'text',
  'userMessage',
];

/** A consumer's compiler settings, and the file the package must resolve to under them. */
interface ConsumerSetting {
  readonly name: string;
  /** The consumer file's extension: `.mts` and `.cts` fix its module format under node16/nodenext. */
  readonly extension: '.ts' | '.mts' | '.cts';
  readonly options: ts.CompilerOptions;
  /** The declaration file `'mcp42'` must resolve to, relative to the package. */
  readonly resolvesTo: string;
}

/**
 * Not here: `node16` for a CommonJS file. Under it TypeScript refuses a CommonJS file's imports of an
 * ES module, and Nest 12 (the repository's) is ES modules only, so a consumer's own imports of Nest
 * fail there just as ours do; with Nest 11 it works, and test/consumers/nest11-cjs-fastify compiles so.
 */
const SETTINGS: readonly ConsumerSetting[] = [
  {
    name: 'nodenext, ES module (an ESM Nest app)',
    extension: '.mts',
    options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    resolvesTo: 'dist/esm/index.d.ts',
  },
  {
    name: 'nodenext, CommonJS (a .cts file, or a package without "type": "module")',
    extension: '.cts',
    options: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
    resolvesTo: 'dist/cjs/index.d.ts',
  },
  {
    name: 'bundler',
    extension: '.ts',
    options: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
    resolvesTo: 'dist/esm/index.d.ts',
  },
  {
    name: 'commonjs, node10 resolution (the `nest new` setting; deprecated in TypeScript 6)',
    extension: '.ts',
    options: {
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      ignoreDeprecations: '6.0',
    },
    resolvesTo: 'dist/cjs/index.d.ts',
  },
];

describe('the packed package and its declarations', () => {
  let workDir: string;
  let packed: PackedPackage;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'mcp42-api-'));
    packed = await packedPackage(workDir);
  }, 180_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('ship the build and the three documents only: every module of src/ once, no map, test or sample', async () => {
    const modules = (await readdir(join(ROOT, 'src'), { recursive: true }))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !/\.(spec|e2e-spec)\.ts$/.test(file))
      .map((file) => file.replace(/\.ts$/, ''));
    // The ES module wrapper of the root and of each subpath export (`./redis` → dist/esm/redis/).
    const subpaths = Object.keys(packed.manifest.exports as object)
      .filter((key) => key !== '.' && key !== './package.json')
      .map((key) => `${key.slice(2)}/`);
    const wrappers = ['', ...subpaths].flatMap((folder) => [
      `dist/esm/${folder}index.d.ts`,
      `dist/esm/${folder}index.js`,
    ]);
    const expected = [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
      'dist/cjs/package.json',
      ...modules.flatMap((module) => [`dist/cjs/${module}.d.ts`, `dist/cjs/${module}.js`]),
      ...wrappers,
    ];
    expect(packed.files).toEqual(expected.sort());
  });

  it('ship a manifest without development scripts, and with the repository, homepage and bugs', () => {
    const { manifest } = packed;
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) });
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs).toEqual({ url: expect.stringMatching(/^https:\/\/github\.com\/.+\/issues$/) });
  });

  it('ship a README whose links work from node_modules: absolute, or anchors of the page', async () => {
    const readme = await readFile(join(packed.packageDir, 'README.md'), 'utf8');
    // Inline links and images `[text](target)` and reference definitions `[id]: target`.
    const targets = [
      ...[...readme.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!),
      ...[...readme.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!),
    ];
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !/^(https:\/\/|#)/.test(target))).toEqual([]);
  });

  it('are built with stripInternal', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.cjs.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    )!;
    expect(config.options.stripInternal).toBe(true);
    expect(config.options.declaration).toBe(true);
  });

  it('keep no @internal declaration in any published file', async () => {
    const declarations = packed.files.filter((file) => file.endsWith('.d.ts'));
    expect(declarations).toEqual(expect.arrayContaining(['dist/cjs/index.d.ts', 'dist/esm/index.d.ts']));
    const leaks: string[] = [];
    for (const file of declarations) {
      if ((await readFile(join(packed.packageDir, file), 'utf8')).includes('@internal')) leaks.push(file);
    }
    expect(leaks).toEqual([]);
  });

  /**
   * A consumer file importing the package under `setting`, compiled against the unpacked package with
   * `skipLibCheck: false`: what `'mcp42'` resolves to, the names it exports, and every diagnostic.
   */
  async function consumerView(
    setting: ConsumerSetting,
    entry: { specifier: string; uses: string } = { specifier: 'mcp42', uses: 'McpModule' },
  ): Promise<{
    resolved: string | undefined;
    names: string[];
    problems: string[];
  }> {
    const tag = entry.specifier.replace(/\W/g, '-');
    const file = join(packed.appDir, `consumer-${tag}-${SETTINGS.indexOf(setting)}${setting.extension}`);
    await writeFile(file, `import * as entry from '${entry.specifier}';\nexport const used = entry.${entry.uses};\n`);
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2023,
      strict: true,
      esModuleInterop: true,
      experimentalDecorators: true,
      noEmit: true,
      skipLibCheck: false,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
      ...setting.options,
    });
    const source = program.getSourceFile(file)!;
    const specifier = (source.statements[0] as ts.ImportDeclaration).moduleSpecifier;
    const checker = program.getTypeChecker();
    const moduleSymbol = checker.getSymbolAtLocation(specifier);
    const resolved = moduleSymbol?.declarations?.[0]?.getSourceFile().fileName;
    const names = moduleSymbol ? checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.name) : [];
    // The consumer's file and the package's declarations must be clean; Nest's own are not our
    // concern (and checking only ours keeps this quick).
    const ours = program
      .getSourceFiles()
      .filter((sourceFile) => sourceFile === source || sourceFile.fileName.startsWith(`${packed.packageDir}/`));
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...ours.flatMap((sourceFile) => [
        ...program.getSyntacticDiagnostics(sourceFile),
        ...program.getSemanticDiagnostics(sourceFile),
      ]),
    ];
    const problems = diagnostics.map((diagnostic) => {
      const where = diagnostic.file ? `${diagnostic.file.fileName.slice(packed.appDir.length + 1)}: ` : '';
      return `${where}TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    return { resolved, names: names.sort(), problems };
  }

  it.each(SETTINGS.map((setting) => [setting.name, setting] as const))(
    'offer a consumer compiling with %s the whole public API, type-checking cleanly',
    async (_name, setting) => {
      const view = await consumerView(setting);
      expect(view.resolved).toBe(join(packed.packageDir, setting.resolvesTo));
      expect(view.problems).toEqual([]);
      // A comment above an export that mentions the internal tag makes stripInternal drop that export.
      expect(view.names).toEqual([...PUBLIC_API].sort());
    },
    60_000,
  );

  /**
   * What a consumer writes without type annotations, its types inferred from the package's builders,
   * context and registries: with `declaration: true` (as `nest new` sets it) TypeScript must name each
   * inferred type in the consumer's declarations, from the one module it imports (TS2883 otherwise).
   */
  const INFERRED_CONSUMER = `
import { McpTool, McpToolRegistry, McpResourceRegistry, McpPromptRegistry, McpSessionRegistry, text, image, audio,
  resourceLink, embeddedText, embeddedBlob, userMessage, assistantMessage, type McpContext } from 'mcp42';
export const built = [text('a'), image('AA==', 'image/png'), audio('AA==', 'audio/wav'),
  resourceLink({ uri: 'a://b', name: 'b' }), embeddedText('a://b', 'x'), embeddedBlob('a://b', 'AA==')];
export const messages = [userMessage('hi'), assistantMessage('hello')];
export class Tools {
  @McpTool({ description: 'Returns what it builds' })
  build() { return [text('x')]; }
  ask(ctx: McpContext) { return ctx.elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } }); }
  sample(ctx: McpContext) { return ctx.sample({ messages: [], maxTokens: 1 }); }
  async roots(ctx: McpContext) { return (await ctx.listRoots()).roots; }
  who(ctx: McpContext) { return [ctx.clientInfo, ctx.clientCapabilities, ctx.meta, ctx.era, ctx.requestId]; }
}
export const listed = (tools: McpToolRegistry, resources: McpResourceRegistry, prompts: McpPromptRegistry) =>
  [tools.list(), resources.list(), prompts.list()] as const;
export const sessions = (registry: McpSessionRegistry) => registry.list().map((session) => session.clientInfo);
`;

  it.each(SETTINGS.map((setting) => [setting.name, setting] as const))(
    'let a consumer compiling with %s and declaration: true infer the types of what it builds',
    async (_name, setting) => {
      const file = join(packed.appDir, `inferred-${SETTINGS.indexOf(setting)}${setting.extension}`);
      await writeFile(file, INFERRED_CONSUMER);
      const program = ts.createProgram([file], {
        target: ts.ScriptTarget.ES2023,
        strict: true,
        experimentalDecorators: true,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: join(packed.appDir, `inferred-out-${SETTINGS.indexOf(setting)}`),
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        ...setting.options,
      });
      const source = program.getSourceFile(file)!;
      const problems = [...program.getSemanticDiagnostics(source), ...program.getDeclarationDiagnostics(source)].map(
        (diagnostic) => `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
      );
      expect(problems).toEqual([]);
    },
    60_000,
  );

  /** The subpath exports: optional integrations, each with the names a consumer writes. */
  const SUBPATH_APIS = [
    { subpath: 'redis', uses: 'redisState', names: ['RedisStateOptions', 'redisState'] },
    {
      subpath: 'otel',
      uses: 'mcpTelemetry',
      names: [
        'METRIC_MCP42_SERVER_LISTEN_STREAMS',
        'METRIC_MCP42_SERVER_OUTBOX_OVERFLOWS',
        'METRIC_MCP42_SERVER_REFUSALS',
        'METRIC_MCP42_SERVER_SESSIONS',
        'METRIC_MCP42_SERVER_STATE_AVAILABLE',
        'METRIC_MCP_SERVER_OPERATION_DURATION',
        'METRIC_MCP_SERVER_SESSION_DURATION',
        'McpTelemetryOptions',
        'mcpTelemetry',
      ],
    },
    { subpath: 'terminus', uses: 'McpHealthIndicator', names: ['McpHealthIndicator'] },
    {
      subpath: 'protocol',
      uses: 'LATEST_PROTOCOL_VERSION',
      names: [
        'AudioContent',
        'BlobResourceContents',
        'CacheScope',
        'CallToolResult',
        'ClientCapabilities',
        'CompleteResult',
        'ContentAnnotations',
        'ContentBlock',
        'CreateMessageRequestParams',
        'CreateMessageResult',
        'ElicitRequestParams',
        'ElicitResult',
        'ElicitationSchema',
        'EmbeddedResource',
        'ErrorCode',
        'GetPromptResult',
        'Icon',
        'ImageContent',
        'Implementation',
        'JsonRpcError',
        'JsonRpcErrorObject',
        'JsonRpcParams',
        'JsonSchemaObject',
        'LATEST_PROTOCOL_VERSION',
        'LEGACY_PROTOCOL_VERSIONS',
        'LOGGING_LEVELS',
        'LegacyProtocolVersion',
        'ListPromptsResult',
        'ListResourceTemplatesResult',
        'ListResourcesResult',
        'ListRootsResult',
        'ListToolsResult',
        'LoggingLevel',
        'MODERN_PROTOCOL_VERSIONS',
        'McpEra',
        'McpEras',
        'Meta',
        'ModernProtocolVersion',
        'PromptArgument',
        'PromptDefinition',
        'PromptMessage',
        'ProtocolVersion',
        'ReadResourceResult',
        'RequestId',
        'ResourceDefinition',
        'ResourceLink',
        'ResourceTemplateDefinition',
        'Role',
        'Root',
        'SUPPORTED_PROTOCOL_VERSIONS',
        'SamplingMessage',
        'TextContent',
        'TextResourceContents',
        'ToolAnnotations',
        'ToolDefinition',
      ],
    },
    {
      subpath: 'oauth',
      uses: 'McpOAuthModule',
      names: [
        'MCP_OAUTH_MODULE_OPTIONS',
        'MCP_RESOURCE_METADATA_URL',
        'McpOAuthGuard',
        'McpOAuthIntrospection',
        'McpOAuthIssuer',
        'McpOAuthModule',
        'McpOAuthModuleExtras',
        'McpOAuthOptions',
        'McpOAuthUser',
        'ProtectedResourceMetadata',
      ],
    },
    {
      subpath: 'testing',
      uses: 'createMcpTestClient',
      names: ['McpHttpError', 'McpHttpRpcError', 'McpTestClientOptions', 'McpTestEra', 'createMcpTestClient'],
    },
  ] as const;

  it.each(
    SETTINGS.flatMap((setting) =>
      SUBPATH_APIS.map((api) => [`mcp42/${api.subpath}`, setting.name, setting, api] as const),
    ),
  )(
    'offer %s to a consumer compiling with %s, type-checking cleanly',
    async (_subpath, _name, setting, api) => {
      const view = await consumerView(setting, { specifier: `mcp42/${api.subpath}`, uses: api.uses });
      // node10 reads typesVersions (it ignores exports); the others read exports.
      expect(view.resolved).toBe(
        join(packed.packageDir, setting.resolvesTo.replace(/index\.d\.ts$/, `${api.subpath}/index.d.ts`)),
      );
      expect(view.problems).toEqual([]);
      expect(view.names).toEqual([...api.names]);
    },
    60_000,
  );
});
