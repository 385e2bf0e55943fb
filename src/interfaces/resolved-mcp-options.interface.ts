import type { McpEras } from '../protocol/era-classifier.js';
import type {
  McpAuthOptions,
  McpCacheOptions,
  McpHttpOptions,
  McpLimitsOptions,
  McpResumabilityOptions,
  McpRoutesOptions,
  McpServedItems,
  McpSessionsOptions,
  McpStateOptions,
  McpStdioOptions,
  McpTasksOptions,
} from './mcp-module-options.interface.js';
import type { ServerTelemetry } from './mcp-telemetry.interface.js';

/**
 * The module's options with every default applied (see `mcp-options.defaults.ts`): what the
 * services read, injected with `MCP_RESOLVED_OPTIONS`. The same groups and names as
 * `McpModuleOptions`, every field filled. Typed here, below every service, so that no service
 * depends on where the defaults come from.
 * @internal
 */
export interface ResolvedMcpOptions {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
  /** What the server serves of the decorated items; `undefined`: every one. */
  readonly items: McpServedItems | undefined;
  readonly eras: McpEras;
  readonly http: Readonly<Required<McpHttpOptions>>;
  readonly limits: Readonly<Required<McpLimitsOptions>>;
  readonly sessions: Readonly<Required<McpSessionsOptions>>;
  readonly auth: Readonly<Required<McpAuthOptions>>;
  readonly resumability: Readonly<Required<McpResumabilityOptions>> & {
    /** Whether `eventStore` is the application's own (the limits of the default store then do not apply). */
    readonly customEventStore: boolean;
  };
  readonly state: Readonly<
    Pick<McpStateOptions, 'shared' | 'secret'> & Required<Pick<McpStateOptions, 'requestStateTtlMs'>>
  >;
  readonly cache: McpCacheOptions;
  /** This server's telemetry; `NO_TELEMETRY` without the `telemetry` option. */
  readonly telemetry: ServerTelemetry;
  readonly routes: Readonly<Required<McpRoutesOptions>>;
  readonly stdio: Readonly<McpStdioOptions>;
  readonly tasks: Readonly<Required<McpTasksOptions>>;
}
