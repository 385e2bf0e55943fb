/** What a request's `Accept` header allows, of the two types the transport speaks. */
export interface AcceptedTypes {
  readonly json: boolean;
  readonly eventStream: boolean;
}

const NOTHING: AcceptedTypes = Object.freeze({ json: false, eventStream: false });

/**
 * Reads an `Accept` header as RFC 9110 does: media ranges with wildcards, a range with `q=0`
 * refused. A missing header allows nothing, since MCP clients must send one.
 */
export function acceptedTypes(accept: string | undefined): AcceptedTypes {
  if (!accept) return NOTHING;
  let json = false;
  let eventStream = false;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';');
    if (params.some(isZeroQuality)) continue;
    switch (range.trim().toLowerCase()) {
      case '*/*':
        json = eventStream = true;
        break;
      case 'application/json':
      case 'application/*':
        json = true;
        break;
      case 'text/event-stream':
      case 'text/*':
        eventStream = true;
        break;
    }
  }
  return { json, eventStream };
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
