import type { LoggerService } from '@nestjs/common';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/json-rpc.types.js';

/**
 * What a transport tells when something it should send has no JSON form: a server bug worth logging.
 * The same words for every transport (HTTP responders, the stdio writer).
 */
export interface SerializationReports {
  /** Told when a response cannot be serialised (it is answered as an internal error instead). */
  readonly onUnserializable?: (error: unknown, response: JsonRpcResponse) => void;
  /** Told when a message about a call (progress, log) cannot be serialised: it is dropped. */
  readonly onUnserializableMessage?: (message: JsonRpcMessage) => void;
}

/** Reports that log each case as an error, the same words for both eras. */
export function loggedSerializationReports(logger: LoggerService): Required<SerializationReports> {
  return {
    onUnserializable: (error, response) => {
      logger.error(
        `The result for request ${JSON.stringify(response.id)} cannot be serialised to JSON; answered as an internal error`,
        error instanceof Error ? error.stack : String(error),
      );
    },
    onUnserializableMessage: (message) => {
      const method = 'method' in message ? message.method : 'response';
      logger.error(`A ${method} message cannot be serialised to JSON; it was dropped`);
    },
  };
}
