import type { PipeTransform, Type } from '@nestjs/common';
import { MCP_PARAMS_METADATA } from '../mcp.constants.js';
import type { McpParamTypeValue } from './mcp-param-type.js';

/** One marked parameter, in the shape Nest's external context creator reads. */
export interface McpParamMetadata {
  readonly index: number;
  readonly data: unknown;
  readonly pipes: (Type<PipeTransform> | PipeTransform)[];
}

/** Parameters of one method by `<type>:<index>` (or a custom decorator's key). */
export type McpParamsMetadata = Record<string, McpParamMetadata>;

/**
 * Builds a parameter decorator that marks its parameter with an MCP parameter type. Stored like
 * Nest's own route parameters, on the class that declares the method.
 */
export function mcpParamDecorator(
  type: McpParamTypeValue,
  data?: unknown,
  pipes: (Type<PipeTransform> | PipeTransform)[] = [],
): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new TypeError('MCP parameter decorators apply to method parameters only');
    const existing = (Reflect.getMetadata(MCP_PARAMS_METADATA, target.constructor, key) ?? {}) as McpParamsMetadata;
    Reflect.defineMetadata(
      MCP_PARAMS_METADATA,
      { ...existing, [`${type}:${index}`]: { index, data, pipes } },
      target.constructor,
      key,
    );
  };
}
