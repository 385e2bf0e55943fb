import type { TelemetryCatalog, TelemetryOperation } from '../interfaces/mcp-telemetry.interface.js';
import { failureOf, metricFailureOf, OperationKinds, spanAttributesOf } from './operation-attributes.js';

const NETWORK = { transport: 'tcp', protocolName: 'http', protocolVersion: '1.1', clientAddress: '::1', clientPort: 5 };

/** A server with the tool `echo`, the prompt `greet` and the resource `weather://x`; `every` has any item. */
const CATALOG: TelemetryCatalog = {
  hasTool: (name) => name === 'echo',
  hasPrompt: (name) => name === 'greet',
  hasResource: (uri) => uri === 'weather://x',
};
const EVERY: TelemetryCatalog = { hasTool: () => true, hasPrompt: () => true, hasResource: () => true };

function kindsOf(uriInName = false, catalog: TelemetryCatalog = CATALOG): OperationKinds {
  const kinds = new OperationKinds('weather', uriInName);
  kinds.know(catalog);
  return kinds;
}

const call = (name: string, id = 1): TelemetryOperation => ({
  method: 'tools/call',
  id,
  params: { name },
  protocolVersion: '2025-11-25',
  sessionId: 's',
  network: NETWORK,
});

describe('OperationKinds', () => {
  it('describes one kind once: the same span name and metric attributes for every call of a tool', () => {
    const kinds = kindsOf(false, EVERY);
    const first = kinds.of(call('echo', 1));
    expect(kinds.of(call('echo', 2))).toBe(first);
    expect(kinds.of(call('other'))).not.toBe(first);
    expect(first.spanName).toBe('tools/call echo');
    expect(first.metric).toStrictEqual({
      'mcp.method.name': 'tools/call',
      'mcp42.server.name': 'weather',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
    });
  });

  it('tells kinds apart by protocol version and HTTP version too', () => {
    const kinds = kindsOf();
    const http11 = kinds.of(call('echo'));
    expect(kinds.of({ ...call('echo'), protocolVersion: '2026-07-28' })).not.toBe(http11);
    expect(kinds.of({ ...call('echo'), network: { ...NETWORK, protocolVersion: '2' } })).not.toBe(http11);
  });

  it('keeps at most 512 kinds, starting again when full (a server with very many tools)', () => {
    const kinds = kindsOf(false, EVERY);
    for (let i = 0; i < 512; i++) kinds.of(call(`junk-${i}`));
    const kept = kinds.of(call('junk-10'));
    expect(kinds.of(call('junk-10'))).toBe(kept);
    // The 513th kind empties the cache: the first names a client sent do not hold it for good.
    const late = kinds.of(call('echo'));
    expect(kinds.of(call('echo'))).toBe(late);
    expect(late.spanName).toBe('tools/call echo');
    expect(kinds.of(call('junk-10'))).not.toBe(kept);
  });

  it('puts the per-message attributes on the span only, absent ones undefined', () => {
    const kinds = kindsOf();
    const read: TelemetryOperation = { method: 'resources/read', params: { uri: 'weather://x' }, id: 'a' };
    const attributes = spanAttributesOf(kinds.of(read), read);
    expect(Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined))).toStrictEqual({
      'mcp.method.name': 'resources/read',
      'mcp42.server.name': 'weather',
      'mcp.resource.uri': 'weather://x',
      'jsonrpc.request.id': 'a',
    });
    expect(kinds.of(read).metric['mcp.resource.uri']).toBeUndefined();
    expect(kindsOf(true).of(read).spanName).toBe('resources/read weather://x');
  });

  it('builds the metric attributes of each failure once per error.type', () => {
    const kind = kindsOf().of(call('echo'));
    const failure = failureOf('tools/call', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } })!;
    const attributes = metricFailureOf(kind, failure);
    expect(attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(metricFailureOf(kind, failure)).toBe(attributes);
    expect(kind.metric['error.type']).toBeUndefined();
  });

  it('names an item only when the server has it: the name asked for stays on the span alone', () => {
    const kinds = kindsOf(true);
    const missing = call('no_such_tool');
    const kind = kinds.of(missing);
    expect(kind.spanName).toBe('tools/call');
    expect(kind.metric['gen_ai.tool.name']).toBeUndefined();
    expect(kind.metric['gen_ai.operation.name']).toBe('execute_tool');
    // Every unknown name is one kind: a client cannot make series (nor cache entries) without bound.
    expect(kinds.of(call('another_made_up_name'))).toBe(kind);
    expect(spanAttributesOf(kind, missing)['gen_ai.tool.name']).toBe('no_such_tool');

    const prompt: TelemetryOperation = { method: 'prompts/get', params: { name: 'nope' } };
    expect(kinds.of(prompt).spanName).toBe('prompts/get');
    expect(kinds.of(prompt).metric['gen_ai.prompt.name']).toBeUndefined();
    expect(spanAttributesOf(kinds.of(prompt), prompt)['gen_ai.prompt.name']).toBe('nope');
    expect(kinds.of({ method: 'prompts/get', params: { name: 'greet' } }).spanName).toBe('prompts/get greet');

    // Even when asked for, only a URI the server serves names the span.
    expect(kinds.of({ method: 'resources/read', params: { uri: 'weather://nowhere' } }).spanName).toBe(
      'resources/read',
    );
  });

  it('names no item before the server says which it has', () => {
    const kind = new OperationKinds('weather', false).of(call('echo'));
    expect(kind.spanName).toBe('tools/call');
    expect(kind.metric['gen_ai.tool.name']).toBeUndefined();
  });

  it('records a method MCP does not define as _OTHER, on the span and the metric', () => {
    const kinds = kindsOf();
    const made: TelemetryOperation = { method: 'made/up-1', id: 3, params: {} };
    const kind = kinds.of(made);
    expect(kind.spanName).toBe('_OTHER');
    expect(kind.metric['mcp.method.name']).toBe('_OTHER');
    expect(spanAttributesOf(kind, made)['mcp.method.name']).toBe('_OTHER');
    expect(kinds.of({ ...made, method: 'made/up-2' })).toBe(kind);
    // Methods MCP defines keep their name, served here or not, in either revision.
    for (const method of ['tasks/list', 'subscriptions/listen', 'server/discover', 'logging/setLevel']) {
      expect(kinds.of({ method, params: {} }).metric['mcp.method.name']).toBe(method);
    }
  });
});
