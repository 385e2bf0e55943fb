import { isPlainObject } from './json-rpc.codec.js';
import { McpMethod } from './mcp.methods.js';
import type { ClientCapabilities } from './mcp.types.js';

/**
 * The capability a client must have declared for the server to send it `method`, or `undefined`
 * when it did. A form elicitation needs `elicitation` (empty, which older clients send, or with
 * `form`); a URL elicitation needs `elicitation.url`; sampling and roots need their own.
 */
export function missingClientCapability(
  method: string,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
): string | undefined {
  switch (method) {
    case McpMethod.ElicitationCreate: {
      const elicitation = capabilities.elicitation;
      if (params.mode === 'url') {
        return isPlainObject(elicitation) && isPlainObject(elicitation.url) ? undefined : 'elicitation.url';
      }
      if (!isPlainObject(elicitation)) return 'elicitation';
      const formDeclared = Object.keys(elicitation).length === 0 || isPlainObject(elicitation.form);
      return formDeclared ? undefined : 'elicitation.form';
    }
    case McpMethod.SamplingCreateMessage:
      return isPlainObject(capabilities.sampling) ? undefined : 'sampling';
    case McpMethod.RootsList:
      return isPlainObject(capabilities.roots) ? undefined : 'roots';
    default:
      return undefined;
  }
}
