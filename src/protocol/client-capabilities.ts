import { isPlainObject } from './json-rpc.codec.js';
import { Method } from './methods.js';
import type { ClientCapabilities } from './mcp.types.js';

/**
 * The capability a client must have declared for the server to send it `method`, or `undefined`
 * when it did. A form elicitation needs `elicitation` (empty, which older clients send, or with
 * `form`); a URL elicitation needs `elicitation.url`; sampling needs `sampling` (and `sampling.tools`
 * to offer tools, `sampling.context` to ask for context); roots need `roots`.
 */
export function missingClientCapability(
  method: string,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
): string | undefined {
  switch (method) {
    case Method.ElicitationCreate: {
      const elicitation = capabilities.elicitation;
      if (params.mode === 'url') {
        return isPlainObject(elicitation) && isPlainObject(elicitation.url) ? undefined : 'elicitation.url';
      }
      if (!isPlainObject(elicitation)) return 'elicitation';
      const formDeclared = Object.keys(elicitation).length === 0 || isPlainObject(elicitation.form);
      return formDeclared ? undefined : 'elicitation.form';
    }
    case Method.SamplingCreateMessage: {
      const sampling = capabilities.sampling;
      if (!isPlainObject(sampling)) return 'sampling';
      // 2025-11-25: tool use and context inclusion are capabilities of their own.
      if (params.tools !== undefined && !isPlainObject(sampling.tools)) return 'sampling.tools';
      const context = params.includeContext;
      if ((context === 'thisServer' || context === 'allServers') && !isPlainObject(sampling.context)) {
        return 'sampling.context';
      }
      return undefined;
    }
    case Method.RootsList:
      return isPlainObject(capabilities.roots) ? undefined : 'roots';
    default:
      return undefined;
  }
}
