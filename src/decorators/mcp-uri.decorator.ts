import { ParamType } from '../execution/param-type.js';
import { mcpParamDecorator } from '../execution/param.metadata.js';

/**
 * Gives a resource or resource template method parameter the URI being read (for a template, the
 * full URI the client asked for). `undefined` in tools and prompts.
 *
 * @example
 * ```ts
 * @McpResourceTemplate({ uriTemplate: 'file:///{+path}', name: 'file' })
 * read(@McpArgs('path') path: string, @McpUri() uri: string) { ... }
 * ```
 * @category Decorators
 */
export function McpUri(): ParameterDecorator {
  return mcpParamDecorator(ParamType.Uri);
}
