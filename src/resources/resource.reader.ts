import { Injectable } from '@nestjs/common';
import { McpRequestRunner, resourceNotFound } from '../execution/mcp-request.runner.js';
import { invalidParams } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { ReadResourceResult, ResourceUriParams } from '../protocol/mcp.types.js';
import type { McpCallContext } from '../server/mcp-call-context.js';
import { MAX_SUBSCRIPTIONS_PER_SESSION } from '../session/mcp-session.js';
import { McpResourceRegistry, type ResolvedResource } from './resource.registry.js';
import { toReadResourceResult } from './resource-result.mapper.js';

/**
 * Serves `resources/read`, `resources/subscribe` and `resources/unsubscribe`: resolves the URI to
 * a resource or template, asks its guards, validates a template's variables, runs the handler
 * through its Nest pipeline and maps what it returned.
 *
 * A URI nobody serves, one whose guards deny the caller, and one whose handler finds nothing
 * (`undefined`, `NotFoundException`) are all answered alike: -32002 with the URI in `data`.
 */
@Injectable()
export class McpResourceReader {
  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly runner: McpRequestRunner,
  ) {}

  read(params: ResourceUriParams, call: McpCallContext, requestId: RequestId): Promise<ReadResourceResult> {
    const { uri } = params;
    const resolved = this.registry.resolve(uri);
    const served = resolved?.kind === 'resource' ? resolved.resource : resolved?.template;
    const item = {
      kind: resolved?.kind === 'template' ? ('resourceTemplate' as const) : ('resource' as const),
      name: served?.definition.name ?? uri,
      uri,
    };
    // Unknown URIs go through the same steps as hidden ones (a reused request id included): -32002 must
    // not tell them apart.
    return this.runner.run(
      requestId,
      call,
      { ...item, timeoutMs: served?.timeoutMs, meta: params._meta },
      async (context) => {
        if (!resolved || !served) throw resourceNotFound(uri);
        const execution = await this.runner.execute(served, item, call, () => this.variables(resolved), context);
        if (execution.denied) throw resourceNotFound(uri);
        let result: ReadResourceResult | undefined;
        try {
          result = toReadResourceResult(execution.value, uri, served.definition.mimeType);
        } catch (error) {
          throw this.runner.failure(served.owner, item, error, false);
        }
        if (!result) throw resourceNotFound(uri);
        return result;
      },
    );
  }

  /**
   * Records a subscription to a resource the caller may read: a URI nobody serves, or whose guards
   * deny the caller, is refused with -32002, as a read of it would be.
   */
  async subscribe(params: ResourceUriParams, call: McpCallContext): Promise<void> {
    const { uri } = params;
    if (!(await this.isReadable(uri, call))) throw resourceNotFound(uri);
    if (!call.session.subscribe(uri)) {
      throw invalidParams(`a session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources`);
    }
  }

  unsubscribe(params: ResourceUriParams, call: McpCallContext): void {
    call.session.unsubscribe(params.uri);
  }

  private async isReadable(uri: string, call: McpCallContext): Promise<boolean> {
    const resolved = this.registry.resolve(uri);
    if (!resolved) return false;
    const served = resolved.kind === 'resource' ? resolved.resource : resolved.template;
    const kind = resolved.kind === 'resource' ? 'resource' : 'resourceTemplate';
    return this.runner.isVisible(served, { kind, name: served.definition.name, uri }, call);
  }

  /** The arguments of the handler: none for a resource, the checked variables for a template. */
  private async variables(resolved: ResolvedResource): Promise<object> {
    if (resolved.kind === 'resource') return {};
    const { template, variables } = resolved;
    let check;
    try {
      check = await template.checkVariables(variables);
    } catch {
      throw invalidParams(`the variables of ${resolved.template.definition.uriTemplate} could not be read`);
    }
    if (!check.ok) {
      throw invalidParams(`invalid variables for ${template.definition.uriTemplate}: ${check.problems.join('; ')}`);
    }
    return check.value;
  }
}
