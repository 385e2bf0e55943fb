import type { ArgumentsHost } from '@nestjs/common';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import type { McpTransportKind } from '../interfaces/mcp-transport.interface.js';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import type { Invocation, McpItemKind } from './invocation.js';

/**
 * The MCP view of a Nest `ExecutionContext` (or `ArgumentsHost`), for guards, interceptors and
 * filters applied to MCP handlers (tools, resources, templates, prompts, completers).
 * `context.getType()` is `'mcp'` there.
 *
 * @example
 * ```ts
 * canActivate(context: ExecutionContext): boolean {
 *   if (context.getType<McpContextType>() !== 'mcp') return true;
 *   const mcp = McpExecutionContext.of(context);
 *   return mcp.name !== 'delete_everything' || isAdmin(mcp.request);
 * }
 * ```
 * @category Context
 */
export class McpExecutionContext {
  private constructor(private readonly invocation: Invocation) {}

  /**
   * The MCP view of `host`.
   * @throws TypeError when `host` is not an MCP context (check `host.getType()` first).
   */
  static of(host: ArgumentsHost): McpExecutionContext {
    const invocation = McpExecutionContext.invocationOf(host);
    if (!invocation) throw new TypeError(`McpExecutionContext.of: the context is "${host.getType()}", not "mcp"`);
    return new McpExecutionContext(invocation);
  }

  /** Whether `host` is an MCP context. */
  static isMcp(host: ArgumentsHost): boolean {
    return McpExecutionContext.invocationOf(host) !== undefined;
  }

  private static invocationOf(host: ArgumentsHost): Invocation | undefined {
    if (host.getType<string>() !== MCP_CONTEXT_TYPE) return undefined;
    return host.getArgByIndex<Invocation | undefined>(3);
  }

  /**
   * `'list'` while a listing, a `resources/subscribe` or a `completion/complete` asks the guards
   * whether the caller may see the item; `'call'` when the tool runs, the resource is read, the prompt
   * got or the completer run.
   */
  get phase(): 'list' | 'call' {
    return this.invocation.phase;
  }

  /** What the handler serves: `'tool'`, `'resource'`, `'resourceTemplate'`, `'prompt'` or `'completion'`. */
  get kind(): McpItemKind {
    return this.invocation.kind;
  }

  /** The item's name: a tool's, a resource's or template's, a prompt's (for a completion, the name of the prompt or template it completes). */
  get name(): string {
    return this.invocation.name;
  }

  /** The URI being read, for resources and resource templates. */
  get uri(): string | undefined {
    return this.invocation.uri;
  }

  /**
   * The arguments (a tool's, a template's variables, a prompt's, a completion's request): as sent in
   * guards (they run before validation), validated for interceptors, pipes and filters; `undefined`
   * while listing.
   */
  get arguments(): object | undefined {
    return this.invocation.arguments;
  }

  /** The call's context; `undefined` while listing. */
  get context(): McpContext | undefined {
    return this.invocation.context;
  }

  /** The calling session; `undefined` for a stateless (2026-07-28) request, which has none. */
  get session(): McpSessionHandle | undefined {
    return this.invocation.session;
  }

  /**
   * How the message arrived: `'http'`, or `'stdio'` (no HTTP request, no headers: the request is an
   * `McpStdioRequest` whose `user` is the module's `stdio.user`). A guard written for HTTP
   * (reading `Authorization`, say) can let stdio through here: the process that spawned the server is its user.
   */
  get transport(): McpTransportKind {
    return this.invocation.transport;
  }

  /** The scopes the caller holds (`request.user`, read with the module's `auth.scopesOf` option). */
  get grantedScopes(): readonly string[] {
    return this.invocation.grantedScopes();
  }

  /**
   * Whether mcp42 asks the guards again with the caller's missing scopes forgiven: with
   * `auth.scopeDenial: 'challenge'`, a refusal for scopes (`McpInsufficientScopeException`) lists the item,
   * or challenges the call, only if the other guards admit the caller. A guard that checks scopes
   * itself admits while this is true, as `ScopesGuard` does. The other guards then run twice for
   * that request: keep side effects (counters, audit lines) out of a guard's refusal path, or skip
   * them while this is true.
   */
  get scopesWaived(): boolean {
    return this.invocation.scopesWaived;
  }

  /**
   * The HTTP request that carried the MCP message (with `user`, as the endpoint's guards set it); over
   * stdio, the message's `McpStdioRequest` (`user` from the module's `stdio.user` option).
   */
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- public API, as Nest's getRequest<T>()
  getRequest<T = unknown>(): T {
    return this.invocation.request as T;
  }
}

/**
 * `ExecutionContext.getType()` of MCP handlers, for `context.getType<McpContextType>()`.
 * @category Context
 */
export type McpContextType = 'mcp';
