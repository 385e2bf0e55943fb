/**
 * The public API as users get it: the declarations the build publishes (tsconfig.build.json, with
 * `stripInternal`), emitted here in memory from src/index.ts. The list below is the API report:
 * adding, removing or renaming an export of the package changes this test, on purpose.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every name `import { … } from 'mcp42'` offers, sorted. */
const PUBLIC_API = [
  'AudioContent',
  'BinaryData',
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
  'EmbeddedResourceOptions',
  'ErrorCode',
  'GetPromptResult',
  'Icon',
  'ImageContent',
  'Implementation',
  'InMemoryEventStore',
  'InMemoryEventStoreOptions',
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
  'MAX_SUBSCRIBED_URI_CHARS',
  'MAX_SUBSCRIPTIONS_PER_SESSION',
  'MCP_CONTEXT_TYPE',
  'MCP_MODULE_OPTIONS',
  'MCP_PUBLIC_METADATA',
  'MCP_SCOPES_METADATA',
  'MCP_SESSION',
  'MODERN_PROTOCOL_VERSIONS',
  'McpArgs',
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
  'McpCtx',
  'McpDefinitionError',
  'McpEra',
  'McpEras',
  'McpEventStore',
  'McpExecutionContext',
  'McpGuard',
  'McpItemKind',
  'McpItemRegistry',
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
  'McpRuntimePromptOptions',
  'McpRuntimeResourceOptions',
  'McpRuntimeResourceTemplateOptions',
  'McpRuntimeToolOptions',
  'McpScopes',
  'McpScopesGuard',
  'McpSession',
  'McpSessionHandle',
  'McpSessionRegistry',
  'McpStoredEvent',
  'McpTool',
  'McpToolDefinitionError',
  'McpToolError',
  'McpToolHandler',
  'McpToolOptions',
  'McpToolRegistry',
  'McpUri',
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
  'ResourceLinkInit',
  'ResourceTemplateDefinition',
  'Role',
  'Root',
  'SUPPORTED_PROTOCOL_VERSIONS',
  'SamplingMessage',
  'TextContent',
  'TextResourceContents',
  'ToolAnnotations',
  'ToolDefinition',
  'assistantMessage',
  'audio',
  'defaultScopesOf',
  'defaultSessionOwner',
  'embeddedBlob',
  'embeddedText',
  'image',
  'resourceLink',
  'text',
  'userMessage',
];

interface Emitted {
  readonly program: ts.Program;
  /** The published declaration files, by path relative to the package root (`dist/src/...d.ts`). */
  readonly declarations: ReadonlyMap<string, string>;
}

function emitDeclarations(): Emitted {
  const configPath = join(ROOT, 'tsconfig.build.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const options: ts.CompilerOptions = {
    ...config.options,
    emitDeclarationOnly: true,
    declarationMap: false,
    noEmit: false,
  };
  const program = ts.createProgram([join(ROOT, 'src', 'index.ts')], options);
  const declarations = new Map<string, string>();
  program.emit(undefined, (fileName, text) => {
    const relative = fileName.slice(ROOT.length + 1);
    if (relative.startsWith('dist/src/') && relative.endsWith('.d.ts')) declarations.set(relative, text);
  });
  return { program, declarations };
}

describe('the published declarations', () => {
  let emitted: Emitted;

  beforeAll(() => {
    emitted = emitDeclarations();
  }, 60_000);

  it('are built with stripInternal', () => {
    expect(emitted.program.getCompilerOptions().stripInternal).toBe(true);
  });

  it('export exactly the public API, and nothing marked @internal', () => {
    const checker = emitted.program.getTypeChecker();
    const index = emitted.program.getSourceFile(join(ROOT, 'src', 'index.ts'))!;
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(index)!);
    expect(exports.map((symbol) => symbol.name).sort()).toEqual([...PUBLIC_API].sort());
    const internal = exports.filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.declarations ?? []).some((declaration) =>
        ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal'),
      );
    });
    expect(internal.map((symbol) => symbol.name)).toEqual([]);
  });

  it('keep no @internal declaration in any published file', () => {
    const leaks = [...emitted.declarations].filter(([, text]) => text.includes('@internal')).map(([file]) => file);
    expect(leaks).toEqual([]);
    expect(emitted.declarations.get('dist/src/index.d.ts')).toBeDefined();
  });

  /** A program over the emitted declarations alone, as a consumer's compiler sees them. */
  function declarationProgram(): { program: ts.Program; files: ReadonlyMap<string, string> } {
    const files = new Map([...emitted.declarations].map(([file, text]) => [join(ROOT, file), text]));
    const host = ts.createCompilerHost({});
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (fileName) => files.get(fileName) ?? readFile(fileName);
    host.fileExists = (fileName) => files.has(fileName) || fileExists(fileName);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language) => {
      const text = files.get(fileName);
      return text === undefined ? getSourceFile(fileName, language) : ts.createSourceFile(fileName, text, language);
    };
    const program = ts.createProgram(
      [join(ROOT, 'dist', 'src', 'index.d.ts')],
      {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2023,
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
      },
      host,
    );
    return { program, files };
  }

  it('type-check on their own: nothing they name was stripped away', () => {
    const { program, files } = declarationProgram();
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file === undefined || files.has(diagnostic.file.fileName))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('offer consumers the whole public API: stripInternal took no export with it', () => {
    // A comment above an export that mentions the internal tag makes stripInternal drop that export.
    const { program } = declarationProgram();
    const checker = program.getTypeChecker();
    const index = program.getSourceFile(join(ROOT, 'dist', 'src', 'index.d.ts'))!;
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(index)!);
    expect(exports.map((symbol) => symbol.name).sort()).toEqual([...PUBLIC_API].sort());
  });
});
