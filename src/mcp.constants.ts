/** Reflect-metadata key under which `@McpTool()` stores its options on a method. */
export const MCP_TOOL_METADATA = 'mcp:tool';

/** Reflect-metadata key under which `@McpResource()` stores its options on a method. */
export const MCP_RESOURCE_METADATA = 'mcp:resource';

/** Reflect-metadata key under which `@McpResourceTemplate()` stores its options on a method. */
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mcp:resource-template';

/** Reflect-metadata key under which `@McpPrompt()` stores its options on a method. */
export const MCP_PROMPT_METADATA = 'mcp:prompt';

/** Reflect-metadata key under which `@McpCompletion()` stores what a method completes (a list). */
export const MCP_COMPLETION_METADATA = 'mcp:completion';

/** Reflect-metadata key under which `@McpRoute()` stores its options on a controller route handler. */
export const MCP_ROUTE_METADATA = 'mcp:route';

/** Injection token of the module's resolved options (defaults applied). */
export const MCP_RESOLVED_OPTIONS = Symbol('mcp:resolved-options');

/** Reflect-metadata key marking the endpoint controller classes `McpModule.forRoot()` creates. */
export const MCP_ENDPOINT_METADATA = 'mcp:endpoint';

/** Injection token of the endpoint controller class created for this module instance. */
export const MCP_ENDPOINT_CONTROLLER = Symbol('mcp:endpoint-controller');

/** HTTP headers of the Streamable HTTP transport, lower-cased as Node exposes them. */
export const MCP_SESSION_ID_HEADER = 'mcp-session-id';
export const MCP_PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/**
 * The `ExecutionContext.getType()` of tool calls: guards and interceptors tell MCP from HTTP with it.
 * @category Context
 */
export const MCP_CONTEXT_TYPE = 'mcp';

/** Reflect-metadata key of a tool method's full parameter list, as the pipeline reads it. */
export const MCP_HANDLER_PARAMS_METADATA = 'mcp:handler-params';

/**
 * Reflect-metadata key of the scopes `@McpScopes()` requires.
 * @category Guards
 */
export const MCP_SCOPES_METADATA = 'mcp:scopes';

/**
 * Reflect-metadata key set by `@McpPublic()`.
 * @category Guards
 */
export const MCP_PUBLIC_METADATA = 'mcp:public';

/**
 * Injection token of the current MCP session, for request-scoped providers: resolves to the
 * session of the MCP request being served (`undefined` outside MCP requests).
 * @category Context
 */
export const MCP_SESSION = Symbol('mcp:session');

/**
 * The route metadata `@nestjs/platform-fastify` reads as a route's Fastify config (its
 * `FASTIFY_ROUTE_CONFIG_METADATA`; Express ignores it). The endpoint's route carries
 * {@link MCP_ENDPOINT_CONFIG} there: mcp42's Fastify hooks check its Origin/Host and keep Fastify's
 * body parsers away from it.
 */
export const FASTIFY_ROUTE_CONFIG_METADATA = '__fastify_route_config__';
/** The key of the endpoint's Fastify route config that names its path. */
export const MCP_ENDPOINT_CONFIG = 'mcp42Endpoint';

/**
 * Injection token of this server's Protected Resource Metadata URL (RFC 9728), a string: the
 * `resource_metadata` of the 403 `insufficient_scope` challenges mcp42 writes for a call refused
 * for missing scopes (`auth.scopeDenial: 'challenge'`). `McpOAuthModule` provides it; an application
 * that runs its own authorization may provide it in a global module.
 * @category OAuth
 */
export const MCP_RESOURCE_METADATA_URL = Symbol('mcp:resource-metadata-url');

/** Injection token of the change bus (`ChangeBus`) that fans changes out to listening clients. */
export const MCP_CHANGE_BUS = Symbol('mcp:change-bus');

/**
 * The check of the application's MCP servers (`ServersCheck`), for providers that must start after it:
 * Nest runs a provider's init hook after its dependencies' (the stdio server takes stdout only once the
 * check passed).
 */
export const MCP_SERVERS_CHECK = Symbol('mcp:servers-check');

/** The longest delay Node's timers honour: a longer one fires after 1 ms, so every timeout option stops here. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The reflect-metadata keys `@nestjs/swagger` stores its decorators under (its `DECORATORS`
 * constants, unchanged since swagger 4). Read by value so that swagger stays an optional peer: an
 * application without it has nothing under these keys, and route-backed tools are described from
 * class-validator and the route alone. A unit spec pins them to swagger's own constants.
 */
export const SWAGGER_METADATA = {
  operation: 'swagger/apiOperation',
  responses: 'swagger/apiResponse',
  parameters: 'swagger/apiParameters',
  modelProperties: 'swagger/apiModelProperties',
  modelPropertiesArray: 'swagger/apiModelPropertiesArray',
  excludeEndpoint: 'swagger/apiExcludeEndpoint',
  /** The static method swagger's CLI plugin adds to DTO classes (its `METADATA_FACTORY_NAME`). */
  metadataFactory: '_OPENAPI_METADATA_FACTORY',
} as const;
