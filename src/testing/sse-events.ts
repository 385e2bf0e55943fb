/** One server-sent event: its `data` lines joined, and its `id` when it had one. */
export interface SseEvent {
  readonly data: string;
  readonly id?: string;
  readonly event?: string;
}

/**
 * The events of a `text/event-stream` body as they arrive (the WHATWG parsing rules that MCP
 * servers use: `field: value` lines, a blank line ending an event, `:` comments ignored).
 */
export async function* sseEvents(body: AsyncIterable<Buffer | string>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let event: string | undefined;
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length > 0)
          yield { data: data.join('\n'), ...(id === undefined ? {} : { id }), ...(event ? { event } : {}) };
        data = [];
        event = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'event') event = value;
    }
  }
}
