/** What a request's `Accept` header allows, of the two types the transport speaks. */
export interface AcceptedTypes {
  readonly json: boolean;
  readonly eventStream: boolean;
}

const NOTHING: AcceptedTypes = Object.freeze({ json: false, eventStream: false });

/**
 * Reads an `Accept` header as RFC 9110 (section 12.5.1) does: media ranges with wildcards, where the
 * most specific range matching a type decides, and `q=0` refuses it (`*\/*, text/event-stream;q=0`
 * allows JSON only). A missing header allows nothing, since MCP clients must send one.
 */
export function acceptedTypes(accept: string | undefined): AcceptedTypes {
  if (!accept) return NOTHING;
  // Per type: the specificity of the best range seen so far (3 exact, 2 type/*, 1 */*) and its verdict.
  let jsonRank = 0;
  let json = false;
  let sseRank = 0;
  let eventStream = false;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';');
    const allowed = !params.some(isZeroQuality);
    const jsonMatch = rank(range, 'application', 'json');
    if (jsonMatch > jsonRank || (jsonMatch === jsonRank && jsonMatch > 0 && allowed)) {
      jsonRank = jsonMatch;
      json = allowed;
    }
    const sseMatch = rank(range, 'text', 'event-stream');
    if (sseMatch > sseRank || (sseMatch === sseRank && sseMatch > 0 && allowed)) {
      sseRank = sseMatch;
      eventStream = allowed;
    }
  }
  return { json, eventStream };
}

/** How specifically `range` names `type/subtype`: 3 exactly, 2 as `type/*`, 1 as `*\/*`, 0 not at all. */
function rank(range: string, type: string, subtype: string): number {
  const [rangeType = '', rangeSubtype = ''] = range.trim().toLowerCase().split('/');
  if (rangeType === '*' && rangeSubtype === '*') return 1;
  if (rangeType !== type) return 0;
  if (rangeSubtype === '*') return 2;
  return rangeSubtype === subtype ? 3 : 0;
}

function isZeroQuality(param: string): boolean {
  const [name, value] = param.split('=');
  return name?.trim().toLowerCase() === 'q' && Number(value) === 0;
}

/** Whether a `Content-Type` is JSON in UTF-8 (the only encoding JSON-RPC over HTTP uses). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type = '', ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  return params.every((param) => {
    const [name, value = ''] = param.split('=');
    return name?.trim().toLowerCase() !== 'charset' || /^"?utf-8"?$/i.test(value.trim());
  });
}
