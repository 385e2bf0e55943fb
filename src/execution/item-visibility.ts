import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { GuardClock, GUARD_DEADLINE_MS } from './guard-clock.js';
import { kindLoggers } from './kind-loggers.js';
import type { MessageContext } from './message-context.js';
import { buildInvocation, executionArgs, type InvocationScopes } from './invocation.js';
import { describeItem, type ItemRequest } from './item-request.js';
import type { ServedHandler } from './served-handler.js';

/**
 * Whether a caller may see an item: its guards, asked in the `list` phase (no arguments), for
 * listings, `resources/subscribe` and the item a completion refers to. A guard that denies, throws
 * or does not answer in time, and a request-scoped provider that cannot be built for the caller,
 * all hide the item; the rest of a list is served.
 */
@Injectable()
export class ItemVisibility {
  private readonly loggers = kindLoggers();
  private readonly scopes: InvocationScopes;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    private readonly clock: GuardClock,
  ) {
    this.scopes = { scopesOf: options.auth.scopesOf, scopeDenial: options.auth.scopeDenial };
  }

  /**
   * Whether the caller of `call` may see `handler`'s item: its guards, within the guard deadline
   * (a guard that never settles hides its item instead of hanging the list or the request).
   * @param listing the deadline of the whole listing this item is part of: the items of a page are
   *   asked in turns, and a listing waits `GUARD_DEADLINE_MS` in all, not per item.
   * @param listMethod whether a list method asks (`tools/list`…): only it shows, with `auth.scopeDenial:
   *   'challenge'`, an item the caller lacks scopes for. A subscription or a completion needs the scopes.
   */
  async isVisible(
    handler: ServedHandler,
    item: ItemRequest,
    call: MessageContext,
    listing?: Promise<void>,
    listMethod = false,
  ): Promise<boolean> {
    const logger = this.loggers[item.kind];
    const late = (): void => logger.error(`The guards of ${describeItem(item)} did not answer in time; it is left out`);
    try {
      const target = await handler.target(call.httpRequest);
      if (!target.guarded) return true;
      const invocation = buildInvocation('list', item, call, undefined, undefined, this.scopes, listMethod);
      const verdict = target.canActivate(executionArgs(invocation));
      if (listing) return await withinListing(verdict, listing, late);
      return await this.clock.within(verdict, GUARD_DEADLINE_MS, late);
    } catch (error) {
      // A request-scoped provider that cannot be built for this caller hides its item; the rest is served.
      logger.error(
        `${describeItem(item)} (${handler.owner}) could not be prepared for listing; it is left out`,
        error instanceof Error ? error.stack : String(error),
      );
      return false;
    }
  }
}

/** The verdict, or `false` once the listing's deadline passed first. */
function withinListing(verdict: Promise<boolean>, listing: Promise<void>, late: () => void): Promise<boolean> {
  let answered = false;
  return Promise.race([
    verdict.finally(() => (answered = true)),
    listing.then(() => {
      if (!answered) late();
      return false;
    }),
  ]);
}
