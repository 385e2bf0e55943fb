import { HttpException, Inject, Injectable } from '@nestjs/common';
import { resolveCacheHint } from '../items/cache-hints.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { CallAnswers } from '../execution/call-answers.js';
import { CallLifecycle } from '../execution/call-lifecycle.js';
import { jsonRpcAnswers } from '../execution/failure-mapping.js';
import { GuardClock, GUARD_DEADLINE_MS } from '../execution/guard-clock.js';
import { ItemVisibility } from '../execution/item-visibility.js';
import { kindLoggers } from '../execution/kind-loggers.js';
import type { MessageContext } from '../execution/message-context.js';
import type { CallCandidate, RunningCall } from '../execution/running-call.js';
import type { ItemRequest } from '../execution/item-request.js';
import { ErrorCode, invalidParams, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import type { CacheHint, InputRequiredResult, ReadResourceResult, ResourceUriParams } from '../protocol/mcp.types.js';
import { MAX_SUBSCRIBED_URI_CHARS, MAX_SUBSCRIPTIONS_PER_SESSION } from '../session/session-subscriptions.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.interface.js';
import { toReadResourceResult } from './resource-result.mapper.js';
import { ResourceStore, type ResolvedResource } from './resource.store.js';

/** -32002, with the URI in `data` as the specification shows it. */
export function resourceNotFound(uri: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
}

/**
 * Serves `resources/read`, `resources/subscribe` and `resources/unsubscribe` on the one call
 * lifecycle. What resources add to it:
 * - a URI goes to the resource with that URI, else to the first template it matches, skipping those
 *   whose guards deny the caller: an item the caller may not see neither answers for it nor stands
 *   in the way of one it may;
 * - a template's variables are its arguments (validated when it declares `variables`);
 * - a URI nobody serves for this caller, and one whose handler finds nothing (`undefined`,
 *   `NotFoundException`), are answered alike: -32002 with the URI in `data`.
 */
@Injectable()
export class ResourceReader {
  private readonly answers: CallAnswers<never>;
  /** The caching hint of each item's reads (2026-07-28), worked out once. */
  private readonly hints = new WeakMap<RegisteredResource | RegisteredResourceTemplate, CacheHint>();
  private readonly readsHint: ResolvedMcpOptions['cache']['reads'];

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    private readonly store: ResourceStore,
    private readonly lifecycle: CallLifecycle,
    private readonly visibility: ItemVisibility,
    private readonly clock: GuardClock,
  ) {
    this.readsHint = options.cache.reads;
    const base = jsonRpcAnswers(kindLoggers().resource);
    this.answers = {
      ...base,
      failed(error, stand, reported) {
        // A `NotFoundException` from a handler: what the specification calls a resource not found.
        if (error instanceof HttpException && error.getStatus() === 404 && stand.item.uri !== undefined) {
          throw resourceNotFound(stand.item.uri);
        }
        return base.failed(error, stand, reported);
      },
    };
  }

  read(
    params: ResourceUriParams,
    call: MessageContext,
    requestId: RequestId,
  ): Promise<ReadResourceResult | InputRequiredResult> {
    const { uri } = params;
    const request = {
      kind: 'resource' as const,
      name: uri,
      uri,
      meta: params._meta,
      input: { method: Method.ResourcesRead, ...params, arguments: {} },
    };
    return this.lifecycle.run<ReadResourceResult>(this.answers, call, requestId, request, (running) =>
      running.serve(this.candidates(uri, call), () => {
        throw resourceNotFound(uri);
      }),
    );
  }

  /**
   * Records a subscription to a URI the caller may read: one nobody serves for it is refused with
   * -32002, as a read would be.
   */
  subscribe(params: ResourceUriParams, call: MessageContext, requestId: RequestId): Promise<void> {
    const { uri } = params;
    const request = { kind: 'resource' as const, name: uri, uri, meta: params._meta };
    return this.lifecycle.run(this.answers, call, requestId, request, async (running): Promise<void> => {
      if (!(await this.isReadable(uri, running))) throw resourceNotFound(uri);
      // Cancelled while the guards decided: the client heard nothing and must not be subscribed.
      if (running.aborted) return;
      if (!(await call.session?.subscribe(uri))) {
        throw invalidParams(
          `a session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources ` +
            `(${MAX_SUBSCRIBED_URI_CHARS} characters of URIs); unsubscribe from some first`,
        );
      }
    });
  }

  unsubscribe(params: ResourceUriParams, call: MessageContext): void {
    call.session?.unsubscribe(params.uri);
  }

  /**
   * The URIs of `uris` the caller may read, as `resources/subscribe` would accept them: for a
   * `subscriptions/listen` filter. One guard deadline for all of them, as for a listing.
   */
  async readableUris(uris: readonly string[], call: MessageContext): Promise<string[]> {
    const deadline = this.clock.deadline(GUARD_DEADLINE_MS);
    try {
      const readable: string[] = [];
      for (const uri of uris) {
        for (const resolved of this.store.candidates(uri)) {
          if (await this.visibility.isVisible(servedBy(resolved), itemOf(resolved, uri), call, deadline.passed)) {
            readable.push(uri);
            break;
          }
        }
      }
      return readable;
    } finally {
      deadline.cancel();
    }
  }

  private hintOf(handler: RegisteredResource | RegisteredResourceTemplate): CacheHint {
    let hint = this.hints.get(handler);
    if (!hint) {
      // Contents may depend on the caller: private unless the item or the options say otherwise.
      hint = resolveCacheHint('private', handler.cache, this.readsHint);
      this.hints.set(handler, hint);
    }
    return hint;
  }

  private async isReadable(uri: string, running: RunningCall<void>): Promise<boolean> {
    for (const resolved of this.store.candidates(uri)) {
      if (await running.admitsToSee(servedBy(resolved), itemOf(resolved, uri))) return true;
    }
    return false;
  }

  /** What may serve `uri`, in order, as the lifecycle serves it. */
  private *candidates(uri: string, call: MessageContext): Generator<CallCandidate<ReadResourceResult>> {
    for (const resolved of this.store.candidates(uri)) {
      const handler = servedBy(resolved);
      const map = (value: unknown): ReadResourceResult => {
        const result = toReadResourceResult(value, uri, handler.definition.mimeType);
        if (!result) throw resourceNotFound(uri);
        call.cacheHint = this.hintOf(handler);
        return result;
      };
      const item = itemOf(resolved, uri);
      if (resolved.kind === 'resource') {
        yield { handler, item, raw: {}, map };
        continue;
      }
      const { template, variables } = resolved;
      const { uriTemplate } = template.definition;
      yield {
        handler,
        item,
        raw: variables,
        arguments: {
          check: template.checkVariables,
          invalid: (problems) => {
            throw problems === undefined
              ? invalidParams(`the variables of ${uriTemplate} could not be read`)
              : invalidParams(`invalid variables for ${uriTemplate}: ${problems.join('; ')}`);
          },
        },
        map,
      };
    }
  }
}

function servedBy(resolved: ResolvedResource): RegisteredResource | RegisteredResourceTemplate {
  return resolved.kind === 'resource' ? resolved.resource : resolved.template;
}

function itemOf(resolved: ResolvedResource, uri: string): ItemRequest {
  return {
    kind: resolved.kind === 'resource' ? 'resource' : 'resourceTemplate',
    name: servedBy(resolved).definition.name,
    uri,
  };
}
