import type { PipeTransform, Type } from '@nestjs/common';
import { ParamType } from '../execution/param-type.js';
import { mcpParamDecorator } from '../execution/param.metadata.js';

/**
 * Gives a tool method parameter the call's validated arguments, or one property of them, through
 * the given pipes (after global, class and method pipes). Undecorated, the first parameter of a
 * tool method gets the arguments anyway; mark it once other parameters carry decorators.
 *
 * @example
 * ```ts
 * @McpTool({ description: 'Forecast for a city', input: CityArgs })
 * forecast(@McpArgs() args: CityArgs, @CurrentUser() user: User) { ... }
 *
 * @McpTool({ description: 'Forecast for a city', input: CityArgs })
 * forecastDays(@McpArgs('days', ParseIntPipe) days: number) { ... }
 * ```
 * @category Decorators
 */
export function McpArgs(property?: string, ...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator {
  return mcpParamDecorator(ParamType.Args, property, pipes);
}
