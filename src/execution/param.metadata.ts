import type { PipeTransform, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { ParamTypeValue } from './param-type.js';

/** One marked parameter, in the shape Nest's external context creator reads. */
export interface ParamMetadata {
  readonly index: number;
  readonly data: unknown;
  readonly pipes: (Type<PipeTransform> | PipeTransform)[];
}

/** Parameters of one method by `<type>:<index>` (or a custom decorator's key). */
export type ParamsMetadata = Record<string, ParamMetadata>;

/**
 * Builds a parameter decorator that marks its parameter with an MCP parameter type. Stored with
 * Nest's own route parameters (same key, same place, an MCP type number), so Nest's scanner
 * registers the pipe classes it names, as it does for `@Body(SomePipe)`.
 */
export function mcpParamDecorator(
  type: ParamTypeValue,
  data?: unknown,
  pipes: (Type<PipeTransform> | PipeTransform)[] = [],
): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new TypeError('MCP parameter decorators apply to method parameters only');
    const host = target.constructor;
    const own = (Reflect.getMetadata(ROUTE_ARGS_METADATA, host, key) ?? {}) as ParamsMetadata;
    const inherited = (Reflect.getMetadata(ROUTE_ARGS_METADATA, Object.getPrototypeOf(host) as object, key) ??
      {}) as ParamsMetadata;
    // An override starts from its parent's parameters: the one it redecorates at `index` is replaced.
    const kept = Object.entries(own).filter(([name, param]) => param.index !== index || param !== inherited[name]);
    Reflect.defineMetadata(
      ROUTE_ARGS_METADATA,
      { ...Object.fromEntries(kept), [`${type}:${index}`]: { index, data, pipes } },
      host,
      key,
    );
  };
}
