import type { Logger } from '@nestjs/common';
import type { ItemRequest } from './item-request.js';
import type { ServedHandler } from './served-handler.js';

/** Where a request stood when it failed or stopped. */
export interface CallStand {
  /** The item admitted (a resource read learns which resource serves its URI then), else the one requested. */
  readonly item: ItemRequest;
  /** What serves it, once the guards admitted the caller: before that the caller may not know it exists. */
  readonly handler?: ServedHandler;
}

/**
 * How one kind of request answers what goes wrong: the one part of the call lifecycle that differs
 * per kind. A tool call answers with `isError` results a model can read; resources, prompts and
 * completions answer with JSON-RPC errors, which these methods throw.
 */
export interface CallAnswers<R> {
  /** The logger of this kind of item (`McpTools`, `McpResources`...). */
  readonly logger: Logger;
  /**
   * The handler, its pipeline or the mapping of its value failed.
   * @param reported whether Nest's exception handler logged the error already.
   */
  failed(error: unknown, stand: CallStand, reported: boolean): R;
  /**
   * The request's signal aborted: its timeout passed or its session ended (a request the client
   * cancelled is never answered, so never reaches this).
   */
  aborted(reason: unknown, stand: CallStand): R;
}
