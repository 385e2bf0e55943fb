import { Injectable } from '@nestjs/common';
import { McpRequestRunner, resourceNotFound, type ItemRequest } from '../execution/mcp-request.runner.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { ReadResourceResult, ResourceUriParams } from '../protocol/mcp.types.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import { MAX_SUBSCRIBED_URI_CHARS, MAX_SUBSCRIPTIONS_PER_SESSION } from '../session/mcp-session.js';
import { McpResourceRegistry, type ResolvedResource } from './resource.registry.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.interface.js';
import { toReadResourceResult } from './resource-result.mapper.js';

/**
 * Serves `resources/read`, `resources/subscribe` and `resources/unsubscribe`.
 *
 * A URI goes to the resource with that URI, else to the first template it matches, skipping those
 * whose guards deny the caller: an item the caller may not see neither answers for it nor stands
 * in the way of one it may. The chosen handler's template variables are validated, then it runs
 * through its Nest pipeline and what it returns is mapped.
 *
 * A URI nobody serves for this caller, and one whose handler finds nothing (`undefined`,
 * `NotFoundException`), are answered alike: -32002 with the URI in `data`. Every request goes
 * through the same steps whether or not the URI exists, reused request ids included.
 */
@Injectable()
export class McpResourceReader {
  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly runner: McpRequestRunner,
  ) {}

  read(params: ResourceUriParams, call: McpCallContext, requestId: RequestId): Promise<ReadResourceResult> {
    const { uri } = params;
    return this.runner.run(requestId, call, { kind: 'resource', name: uri, uri, meta: params._meta }, async (state) => {
      for (const candidate of this.registry.candidates(uri)) {
        const served = servedBy(candidate);
        const item = itemOf(candidate, uri);
        const raw = candidate.kind === 'template' ? candidate.variables : {};
        const execution = await this.runner.execute(served, item, call, () => this.variables(candidate), state, raw);
        if (execution.denied) continue;
        let result: ReadResourceResult | undefined;
        try {
          result = toReadResourceResult(execution.value, uri, served.definition.mimeType);
        } catch (error) {
          throw this.runner.failure(served.owner, item, error, false);
        }
        if (!result) throw resourceNotFound(uri);
        return result;
      }
      throw resourceNotFound(uri);
    });
  }

  /**
   * Records a subscription to a URI the caller may read: one nobody serves for it is refused with
   * -32002, as a read would be.
   */
  subscribe(params: ResourceUriParams, call: McpCallContext, requestId: RequestId): Promise<void> {
    const { uri } = params;
    return this.runner.run(requestId, call, { kind: 'resource', name: uri, uri, meta: params._meta }, async (state) => {
      if (!(await this.isReadable(uri, call))) throw resourceNotFound(uri);
      // Cancelled while the guards decided: the client heard nothing and must not be subscribed.
      if (state.context.signal.aborted) return;
      if (!call.session.subscribe(uri)) {
        throw invalidParams(
          `a session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources ` +
            `(${MAX_SUBSCRIBED_URI_CHARS} characters of URIs); unsubscribe from some first`,
        );
      }
    });
  }

  unsubscribe(params: ResourceUriParams, call: McpCallContext): void {
    call.session.unsubscribe(params.uri);
  }

  private async isReadable(uri: string, call: McpCallContext): Promise<boolean> {
    for (const candidate of this.registry.candidates(uri)) {
      if (await this.runner.isAdmitted(servedBy(candidate), itemOf(candidate, uri), call)) return true;
    }
    return false;
  }

  /** The arguments of the handler: none for a resource, the checked variables for a template. */
  private async variables(resolved: ResolvedResource): Promise<object> {
    if (resolved.kind === 'resource') return {};
    const { template, variables } = resolved;
    let check;
    try {
      check = await template.checkVariables(variables);
    } catch {
      throw invalidParams(`the variables of ${template.definition.uriTemplate} could not be read`);
    }
    if (!check.ok) {
      throw invalidParams(`invalid variables for ${template.definition.uriTemplate}: ${check.problems.join('; ')}`);
    }
    return check.value;
  }
}

function servedBy(candidate: ResolvedResource): RegisteredResource | RegisteredResourceTemplate {
  return candidate.kind === 'resource' ? candidate.resource : candidate.template;
}

function itemOf(candidate: ResolvedResource, uri: string): ItemRequest {
  return {
    kind: candidate.kind === 'resource' ? 'resource' : 'resourceTemplate',
    name: servedBy(candidate).definition.name,
    uri,
  };
}
