import { acceptedTypes, isJsonContentType, type AcceptedTypes } from './media-type.js';

/** How many distinct header values each memo keeps before it forgets them all at once. */
const MEMO_SIZE = 64;

/**
 * The media-type verdicts of one transport, kept by the header's exact text. Clients send the same
 * few `Accept` and `Content-Type` values on every request, and reading one (splits, lower-casing, a
 * regular expression) cost a tool call over 2 µs. Bounded: past MEMO_SIZE distinct values a memo is
 * cleared, so a client sending ever new values costs memory no more than it costs time without it.
 * One per transport, so applications in one process share nothing.
 */
export class MediaTypeVerdicts {
  private readonly accepts = new Map<string, AcceptedTypes>();
  private readonly contentTypes = new Map<string, boolean>();

  /** {@link acceptedTypes}, remembered. */
  accepted(accept: string | undefined): AcceptedTypes {
    if (!accept) return acceptedTypes(accept);
    let types = this.accepts.get(accept);
    if (types === undefined) {
      types = Object.freeze(acceptedTypes(accept));
      remember(this.accepts, accept, types);
    }
    return types;
  }

  /** {@link isJsonContentType}, remembered. */
  isJson(contentType: string | undefined): boolean {
    if (!contentType) return false;
    let json = this.contentTypes.get(contentType);
    if (json === undefined) {
      json = isJsonContentType(contentType);
      remember(this.contentTypes, contentType, json);
    }
    return json;
  }
}

function remember<V>(memo: Map<string, V>, key: string, value: V): void {
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, value);
}
