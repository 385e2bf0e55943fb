import type { BearerErrorCode } from '../http/responses/bearer-challenge.js';

/**
 * Why a presented access token was refused, in OAuth terms. The description is ours, never a
 * library's message or a claim's value: it goes back to the client.
 */
export class TokenRefusal extends Error {
  constructor(
    readonly code: BearerErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'TokenRefusal';
  }
}

/**
 * The authorization server could not be asked (metadata, keys or introspection unreachable): the
 * token is neither good nor bad yet, so the answer is 503, not 401 (a 401 would send the client into
 * a new authorization it does not need).
 */
export class AuthorizationServerUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthorizationServerUnavailable';
  }
}
