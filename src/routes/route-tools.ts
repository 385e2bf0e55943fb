import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { ExecutionArgs } from '../execution/invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpRouteOptions } from '../interfaces/mcp-route-options.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { CallToolResult, ToolAnnotations } from '../protocol/mcp.types.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { Schemas } from '../schemas/schemas.js';
import type { RegisteredTool } from '../tools/registered-tool.interface.js';
import { ToolStore } from '../tools/tool.store.js';
import { DtoSchemas } from './dto-schemas.js';
import { routeAnswer } from './route-answer.js';
import { describeRoute, type RouteDescription } from './route-description.js';
import { RouteInjector } from './route-injector.js';
import { buildRouteInput, type RouteInput } from './route-input.js';
import { locateRoute, type RouteLocation } from './route-location.js';
import { routeOutput, WRAPPED_RESULT } from './route-output.js';
import { fillRoute } from './route-request.js';
import { routeToolName } from './route-selection.js';
import { swaggerOperation } from './swagger-metadata.js';

/** Any class, as decorators see one. */
type AnyClass = abstract new (...args: never[]) => unknown;

/** The route handler's guards, as the pipeline factory puts them behind the MCP execution context. */
type GuardsOf = RegisteredTool['target'];

/** The hints an HTTP method implies (RFC 9110 safe and idempotent methods). */
const METHOD_HINTS: Readonly<Record<string, ToolAnnotations>> = {
  GET: { readOnlyHint: true },
  HEAD: { readOnlyHint: true },
  DELETE: { destructiveHint: true },
  PUT: { idempotentHint: true },
};

/** One route-backed tool, as a call needs it. */
interface RouteTool {
  readonly name: string;
  readonly owner: string;
  readonly route: RouteDescription;
  readonly input: RouteInput;
  readonly takesBody: boolean;
  readonly wrapArrayAs?: string;
  location?: RouteLocation;
}

/**
 * Serves `@McpRoute()` handlers as tools. At bootstrap it reads the route from Nest's own metadata
 * and registers a tool whose input is the route's flat argument object. A call builds the HTTP
 * request the route takes and runs it in process through the application's HTTP handler; the
 * answer is mapped back by status. Listing asks the route's guards (global, controller, method),
 * as it asks those of `@McpTool()` methods, so a caller they refuse does not see the tool; a call
 * meets them again inside the request, where the caller's forwarded `Authorization` decides.
 */
@Injectable()
export class RouteTools {
  private readonly logger = new Logger('McpRoutes');
  private readonly forwardHeaders: readonly string[];

  constructor(
    private readonly tools: ToolStore,
    private readonly schemas: Schemas,
    private readonly injector: RouteInjector,
    private readonly config: ApplicationConfig,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {
    this.forwardHeaders = options.routes.forwardHeaders.map((name) => name.toLowerCase());
  }

  /**
   * The output schema the route's documented response type gives, if any. It is optional: a type
   * that cannot be described (one that contains itself, say) leaves the tool without one, said in
   * the log, rather than stopping the application.
   */
  private documentedOutput(route: RouteDescription, classRef: AnyClass, label: string): ReturnType<typeof routeOutput> {
    try {
      return routeOutput(route, classRef, new DtoSchemas(this.schemas.converter, label, 'output'));
    } catch (error) {
      if (!(error instanceof McpDefinitionError)) throw error;
      this.logger.warn(`${label}: no output schema from the documented response (${error.message})`);
      return undefined;
    }
  }

  /**
   * Registers the route handler `Class.method` as a tool.
   * @param guardsOf the handler's guards behind the MCP execution context (for listings).
   * @param explicit whether the route has its own `@McpRoute()`; one its controller's exposes in bulk
   *   whose shape a tool cannot take (a wildcard path, an array body…) is left out with a warning.
   * @returns whether it is a tool now: `false` for a route left out of its controller's bulk form.
   * @throws McpDefinitionError for a method that is no route, an argument declared twice, or an invalid
   *   definition (for the route's shape, only when `explicit`).
   */
  define(
    options: McpRouteOptions,
    classRef: AnyClass,
    methodName: string,
    owner: string,
    guardsOf: GuardsOf,
    explicit = true,
  ): boolean {
    const label = `@McpRoute() on ${owner}`;
    const route = describeRoute(classRef, methodName, label);
    let input: RouteInput;
    try {
      input = buildRouteInput(route, this.schemas.converter, label);
    } catch (error) {
      // The user asked for this route by name: its problem stops the application. In bulk, it was
      // never asked for: the controller's other routes are served.
      if (explicit || !(error instanceof McpDefinitionError)) throw error;
      const why = error.message.startsWith(`${label}: `) ? error.message.slice(label.length + 2) : error.message;
      this.logger.warn(
        `${route.method} ${route.path} (${owner}) is left out of its controller's @McpRoute(): ${why}. ` +
          'Put @McpRoute({ exclude: true }) on it to leave it out without this warning',
      );
      return false;
    }
    const name = routeToolName(options, route.handler, methodName);
    // A given output wins; else the one swagger declares (its arrays sent wrapped in an object).
    const documented = options.output === undefined ? this.documentedOutput(route, classRef, label) : undefined;
    const tool: RouteTool = {
      name,
      owner,
      route,
      input,
      takesBody: route.params.some((param) => param.place === 'body'),
      ...(documented?.wrapped === true ? { wrapArrayAs: WRAPPED_RESULT } : {}),
    };
    const annotations = { ...METHOD_HINTS[route.method], ...options.annotations };
    const output = options.output ?? documented?.schema;
    this.tools.define(
      {
        name,
        ...(options.title === undefined ? {} : { title: options.title }),
        description: options.description ?? operationText(route.handler) ?? `${route.method} ${route.path}`,
        input: input.schema,
        ...(output === undefined ? {} : { output }),
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        ...(options.icons === undefined ? {} : { icons: options.icons }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options._meta === undefined ? {} : { _meta: options._meta }),
      },
      methodName,
      owner,
      this.targetOf(tool, guardsOf),
    );
    return true;
  }

  /** The tool's target: the route's guards while listing; the in-process request when called. */
  private targetOf(tool: RouteTool, guardsOf: GuardsOf): GuardsOf {
    const targets = new WeakMap<PipelineTarget, PipelineTarget>();
    return async (request) => {
      const guards = await guardsOf(request);
      let target = targets.get(guards);
      if (!target) {
        target = {
          guarded: guards.guarded,
          // A call meets the guards inside the in-process request, with the forwarded credentials.
          canActivate: (args) => (args[3].phase === 'list' ? guards.canActivate(args) : Promise.resolve(true)),
          execute: (args) => this.call(tool, args),
          reportsErrors: false,
        };
        targets.set(guards, target);
      }
      return target;
    };
  }

  private async call(tool: RouteTool, [request, , , invocation]: ExecutionArgs): Promise<CallToolResult> {
    const location = (tool.location ??= locateRoute(tool.route, this.config));
    const args = (invocation.arguments ?? {}) as Record<string, unknown>;
    const { url, body } = fillRoute(location, tool.input.places, args, tool.takesBody);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.forwarded(request),
      ...location.headers,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const { maxResponseBytes } = this.options.routes;
    const response = await this.injector.send(
      { method: tool.route.method, url, headers, body, signal: invocation.context!.signal },
      maxResponseBytes,
    );
    return routeAnswer(response, {
      name: tool.name,
      owner: tool.owner,
      request: `${tool.route.method} ${url}`,
      url: `http://localhost${url}`,
      maxBytes: maxResponseBytes,
      logger: this.logger,
      ...(tool.wrapArrayAs === undefined ? {} : { wrapArrayAs: tool.wrapArrayAs }),
    });
  }

  /** The allowed headers of the MCP request (joined when repeated). */
  private forwarded(request: unknown): Record<string, string> {
    const given = (request as { headers?: Record<string, string | string[] | undefined> } | undefined)?.headers ?? {};
    const headers: Record<string, string> = {};
    for (const name of this.forwardHeaders) {
      const value = given[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    return headers;
  }
}

/** The route's `@ApiOperation()` summary and description, as one text; `undefined` without either. */
function operationText(handler: object): string | undefined {
  const operation = swaggerOperation(handler);
  const parts = [operation?.summary, operation?.description].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
