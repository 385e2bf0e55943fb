/** The OAuth error codes a resource server answers with (RFC 6750 §3.1). */
export type BearerErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** The parameters of one `WWW-Authenticate: Bearer` challenge. */
export interface BearerChallenge {
  readonly error?: BearerErrorCode;
  readonly errorDescription?: string;
  readonly scopes?: readonly string[];
  /** The Protected Resource Metadata URL (RFC 9728), when the application serves one. */
  readonly resourceMetadata?: string;
}

/**
 * Formats a `WWW-Authenticate` value (RFC 6750 §3, RFC 9728 §5.1). Values are quoted strings:
 * quotes and backslashes are escaped and control characters dropped, so nothing in a description can
 * end the parameter early or start a header of its own.
 */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params: [string, string][] = [];
  if (challenge.error !== undefined) params.push(['error', challenge.error]);
  if (challenge.errorDescription !== undefined) params.push(['error_description', challenge.errorDescription]);
  if (challenge.scopes !== undefined && challenge.scopes.length > 0) params.push(['scope', challenge.scopes.join(' ')]);
  if (challenge.resourceMetadata !== undefined) params.push(['resource_metadata', challenge.resourceMetadata]);
  // RFC 6750 §3: a challenge with no parameters is the bare scheme.
  if (params.length === 0) return 'Bearer';
  return `Bearer ${params.map(([name, value]) => `${name}="${quoted(value)}"`).join(', ')}`;
}

function quoted(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]/g, '').replace(/["\\]/g, (char) => `\\${char}`);
}
