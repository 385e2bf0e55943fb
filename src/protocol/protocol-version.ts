/**
 * The modern revisions (2026-07-28 onwards): stateless, every request names its version in
 * `params._meta`, there is no `initialize`.
 */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

/**
 * The legacy revisions: a session opened by `initialize`, which negotiates one of these, newest first.
 */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

/** Every MCP protocol revision this library speaks, newest first: the modern ones, then the legacy ones. */
export const SUPPORTED_PROTOCOL_VERSIONS = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS] as const;

/** One of the {@link MODERN_PROTOCOL_VERSIONS}. */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** One of the {@link LEGACY_PROTOCOL_VERSIONS}. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** One of the {@link SUPPORTED_PROTOCOL_VERSIONS}. */
export type ProtocolVersion = ModernProtocolVersion | LegacyProtocolVersion;

/** The newest revision spoken. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** The newest legacy revision: the answer to an `initialize` asking for one not spoken (even a modern one). */
export const LATEST_LEGACY_PROTOCOL_VERSION: LegacyProtocolVersion = LEGACY_PROTOCOL_VERSIONS[0];

/**
 * The version assumed when a legacy request carries no `MCP-Protocol-Version` header
 * (Streamable HTTP transport, 2025-06-18: "the server SHOULD assume 2025-03-26").
 */
export const DEFAULT_HEADER_PROTOCOL_VERSION: LegacyProtocolVersion = '2025-03-26';

const legacy: ReadonlySet<string> = new Set(LEGACY_PROTOCOL_VERSIONS);
const modern: ReadonlySet<string> = new Set(MODERN_PROTOCOL_VERSIONS);

/** Whether `version` is a legacy revision this library speaks. */
export function isLegacyProtocolVersion(version: unknown): version is LegacyProtocolVersion {
  return typeof version === 'string' && legacy.has(version);
}

/** Whether `version` is a modern revision this library speaks. */
export function isModernProtocolVersion(version: unknown): version is ModernProtocolVersion {
  return typeof version === 'string' && modern.has(version);
}

/**
 * Lifecycle negotiation: a supported requested version is echoed; anything else is answered with
 * our latest legacy one, and the client decides whether it can live with that (it is not an error).
 * A modern version is never negotiated this way: modern clients name theirs on every request.
 */
export function negotiateProtocolVersion(requested: unknown): LegacyProtocolVersion {
  return isLegacyProtocolVersion(requested) ? requested : LATEST_LEGACY_PROTOCOL_VERSION;
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
