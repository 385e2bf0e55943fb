import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import type { McpTransportKind } from '../interfaces/mcp-transport.interface.js';
import type { MessageContext } from './message-context.js';

export type { McpItemKind } from './item-request.js';
import type { ItemRequest, McpItemKind } from './item-request.js';

/**
 * One pass through an MCP handler's Nest pipeline: `call` runs it (a tool called, a resource read,
 * a prompt got, an argument completed), `list` only asks its guards whether the caller may see it
 * (there are no arguments then).
 */
export interface Invocation {
  readonly phase: 'list' | 'call';
  /** What the handler serves. */
  readonly kind: McpItemKind;
  /** The item's name (a tool's, a resource's, a prompt's; for a completion, its prompt's or template's). */
  readonly name: string;
  /** The URI being read (a resource or a template), when there is one. */
  readonly uri?: string;
  /**
   * The arguments (`call`): a tool's arguments, a template's variables, a prompt's arguments, a
   * completion's request; as sent for guards, validated for interceptors, pipes and the handler;
   * `undefined` while listing.
   */
  readonly arguments: object | undefined;
  /** The call's context (`call` only). */
  readonly context: McpContext | undefined;
  /** The calling session; `undefined` for a stateless (2026-07-28) request. */
  readonly session: McpSessionHandle | undefined;
  /** How the message arrived: over HTTP or stdio. */
  readonly transport: McpTransportKind;
  /** The HTTP request that carried the MCP message (over stdio, its `McpStdioRequest`). */
  readonly request: unknown;
  /** The scopes the caller holds: `request.user` read with the module's `auth.scopesOf`. */
  grantedScopes(): readonly string[];
  /** The module's `auth.scopeDenial`: hide items the caller lacks scopes for, or list and challenge them. */
  readonly scopeDenial: 'hide' | 'challenge';
  /**
   * Whether a list method (`tools/list`…) asks (`list` phase): only listings show items the caller
   * lacks scopes for. A `resources/subscribe` or a completion asks in the `list` phase too, not listing.
   */
  readonly listing: boolean;
  /** Whether the guards are asked again with missing scopes forgiven (see `McpExecutionContext.scopesWaived`). */
  readonly scopesWaived: boolean;
}

/** How an invocation reads the caller's scopes, and what a missing one leads to (module options). */
export interface InvocationScopes {
  readonly scopesOf: (user: unknown) => readonly string[];
  readonly scopeDenial: 'hide' | 'challenge';
}

/**
 * The arguments of an MCP execution context, as guards and interceptors get them from
 * `context.getArgs()`: `[request, undefined, undefined, invocation]`. The HTTP request comes
 * first so that guards written for HTTP (`context.switchToHttp().getRequest().user`) read the
 * real, authenticated request, never something a client sent in its arguments. There is no
 * response: mcp42 writes it.
 */
export type ExecutionArgs = [request: unknown, response: undefined, next: undefined, invocation: Invocation];

export function executionArgs(invocation: Invocation): ExecutionArgs {
  return [invocation.request, undefined, undefined, invocation];
}

/**
 * The invocation guards, interceptors and parameter decorators see for one item of one request.
 * @param args as sent for guards, validated for the rest of the pipeline; `undefined` while listing.
 * @param scopes the module's `auth.scopesOf` (read lazily: most guards never ask) and `auth.scopeDenial`.
 * @param listing whether a list method asks (`list` phase only).
 */
export function buildInvocation(
  phase: Invocation['phase'],
  item: ItemRequest,
  call: MessageContext,
  args: object | undefined,
  context: McpContext | undefined,
  scopes: InvocationScopes,
  listing = false,
): Invocation {
  const request = call.httpRequest;
  return {
    phase,
    kind: item.kind,
    name: item.name,
    ...(item.uri === undefined ? {} : { uri: item.uri }),
    arguments: args,
    context,
    session: call.caller.session,
    transport: call.transport,
    request,
    grantedScopes: () => scopes.scopesOf((request as { user?: unknown } | undefined)?.user),
    scopeDenial: scopes.scopeDenial,
    listing,
    scopesWaived: false,
  };
}
