/**
 * MCP protocol revisions this library speaks, newest first.
 * 2026-07-28 (stateless) is not listed yet: it is negotiated per request, not by `initialize`.
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
] as const;

/** One of the {@link SUPPORTED_PROTOCOL_VERSIONS}. */
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** The newest revision spoken: the answer to an `initialize` asking for an unknown one. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/**
 * The version assumed when a request carries no `MCP-Protocol-Version` header
 * (Streamable HTTP transport, 2025-06-18: "the server SHOULD assume 2025-03-26").
 */
export const DEFAULT_HEADER_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

const supported: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return typeof version === 'string' && supported.has(version);
}

/**
 * Lifecycle negotiation: a supported requested version is echoed; anything else is answered with
 * our latest, and the client decides whether it can live with that (it is not an error).
 */
export function negotiateProtocolVersion(requested: unknown): ProtocolVersion {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** JSON-RPC batching exists only in the 2025-03-26 revision: it was added there and removed in 2025-06-18. */
export function supportsBatching(version: string): boolean {
  return version === '2025-03-26';
}

/**
 * Whether a revision has SSE polling (SEP-1699, 2025-11-25): streams open with a priming event
 * (an id and empty data) and the server may close them on purpose after a `retry` field. Older
 * clients treat an event with empty data as a malformed message, so they never get one.
 */
export function supportsSsePolling(version: string): boolean {
  return version >= '2025-11-25';
}
