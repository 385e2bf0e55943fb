import { CUSTOM_ROUTE_ARGS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { MCP_HANDLER_PARAMS_METADATA } from '../mcp.constants.js';
import { ParamType } from './param-type.js';
import type { ParamsMetadata } from './param.metadata.js';

/** Any class, as decorators see one: abstract or not, whatever its constructor takes. */
type AnyClass = abstract new (...args: never[]) => unknown;

const MCP_TYPES: ReadonlySet<string> = new Set(Object.values(ParamType).map(String));

/** The class parameter decorators of `methodName` stored their metadata on (as Nest finds it). */
export function paramsHostOf(classRef: AnyClass, methodName: string): AnyClass {
  const ctor = (classRef.prototype as { constructor?: unknown } | undefined)?.constructor;
  return typeof ctor === 'function' &&
    (ctor.prototype as Record<string, unknown>)[methodName] ===
      (classRef.prototype as Record<string, unknown>)[methodName]
    ? (ctor as AnyClass)
    : classRef;
}

/**
 * Prepares the parameter list Nest's pipeline gives a tool method: MCP parameter decorators,
 * custom parameter decorators (`createParamDecorator`, such as a `@CurrentUser()`), and, for the
 * first two parameters when undecorated, the arguments and the `McpContext`. Stored under its own
 * key, derived only from the class, so two applications sharing the class agree on it.
 *
 * @throws McpDefinitionError for HTTP parameter decorators (`@Body()`, `@Req()`...): a tool
 *   has no body, query or response of its own.
 * @param decorator the decorator that made the method a handler, for the error message.
 * @returns the metadata key the pipeline reads.
 */
export function prepareHandlerParams(
  classRef: AnyClass,
  methodName: string,
  owner: string,
  decorator = '@McpTool()',
): string {
  const host = paramsHostOf(classRef, methodName);
  const route = (Reflect.getMetadata(ROUTE_ARGS_METADATA, host, methodName) ?? {}) as ParamsMetadata;
  const merged: ParamsMetadata = {};
  for (const [key, param] of Object.entries(route)) {
    if (!key.includes(CUSTOM_ROUTE_ARGS_METADATA) && !MCP_TYPES.has(key.split(':')[0]!)) {
      throw new McpDefinitionError(
        `${decorator} on ${owner}: parameter ${param.index} has an HTTP parameter decorator (@Body(), @Req(), @Query()...); ` +
          'MCP handlers take @McpArgs(), @McpCtx(), @McpSession(), @McpUri() or custom decorators made with createParamDecorator()',
      );
    }
    merged[key] = param;
  }
  const taken = new Set(Object.values(merged).map((param) => param.index));
  if (!taken.has(0)) merged[`${ParamType.Args}:0`] = { index: 0, data: undefined, pipes: [] };
  if (!taken.has(1)) merged[`${ParamType.Context}:1`] = { index: 1, data: undefined, pipes: [] };
  Reflect.defineMetadata(MCP_HANDLER_PARAMS_METADATA, merged, host, methodName);
  return MCP_HANDLER_PARAMS_METADATA;
}
