import { IntrinsicException } from '@nestjs/common';

/**
 * Throw from a tool to fail the call with a message meant for the model: the client receives a
 * result with `isError: true` and this message as text, so the model can correct itself.
 * Use it for expected failures (bad input the schema cannot express, a missing record);
 * other exceptions are treated as server bugs and answered with a generic internal error.
 * It is an `IntrinsicException`: Nest's exception handler does not log it as an error.
 * @category Errors
 */
export class McpToolError extends IntrinsicException {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'McpToolError';
  }
}
