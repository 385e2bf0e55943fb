import { HttpException } from '@nestjs/common';
import { bearerChallenge, type BearerErrorCode } from '../http/responses/bearer-challenge.js';
import { AUTH_ERROR_CODE } from './oauth.constants.js';

/** A refusal of the guard: the HTTP status, its headers, and the exception that carries its body. */
export interface OAuthRefusal {
  readonly status: 401 | 403 | 503;
  readonly headers: Readonly<Record<string, string>>;
  readonly exception: HttpException;
}

/** What a refusal says, in OAuth terms (`error` absent: no token was presented at all). */
export interface RefusalReason {
  readonly status: 401 | 403;
  readonly error?: BearerErrorCode;
  readonly description?: string;
  readonly scopes: readonly string[];
  readonly resourceMetadata: string;
}

/**
 * A 401 or 403 with its `WWW-Authenticate` challenge. The body is a JSON-RPC error without id (the
 * message was never read), as mcp42's transport answers every refusal, with the OAuth error in
 * `data`; Nest's exception filter writes it (an application's own filter may reshape it).
 */
export function challengeRefusal(reason: RefusalReason): OAuthRefusal {
  const message = reason.status === 401 ? 'Unauthorized' : 'Forbidden';
  const data =
    reason.error === undefined
      ? undefined
      : { error: reason.error, ...(reason.description === undefined ? {} : { error_description: reason.description }) };
  return {
    status: reason.status,
    headers: {
      'WWW-Authenticate': bearerChallenge({
        ...(reason.error === undefined ? {} : { error: reason.error }),
        ...(reason.description === undefined ? {} : { errorDescription: reason.description }),
        scopes: reason.scopes,
        resourceMetadata: reason.resourceMetadata,
      }),
    },
    exception: new HttpException(
      jsonRpcError(reason.description ? `${message}: ${reason.description}` : message, data),
      reason.status,
    ),
  };
}

/** 503 while the authorization server cannot be asked: the client should retry, not re-authorize. */
export function unavailableRefusal(): OAuthRefusal {
  return {
    status: 503,
    headers: { 'Retry-After': '5' },
    exception: new HttpException(jsonRpcError('Service Unavailable: the authorization server cannot be reached'), 503),
  };
}

function jsonRpcError(message: string, data?: object): object {
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: AUTH_ERROR_CODE, message, ...(data === undefined ? {} : { data }) },
  };
}
