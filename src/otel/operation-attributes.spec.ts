import type { TelemetryOperation } from '../interfaces/mcp-telemetry.interface.js';
import { failureOf, metricFailureOf, OperationKinds, spanAttributesOf } from './operation-attributes.js';

const NETWORK = { transport: 'tcp', protocolName: 'http', protocolVersion: '1.1', clientAddress: '::1', clientPort: 5 };

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
    const kinds = new OperationKinds('weather', false);
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
    const kinds = new OperationKinds('weather', false);
    const http11 = kinds.of(call('echo'));
    expect(kinds.of({ ...call('echo'), protocolVersion: '2026-07-28' })).not.toBe(http11);
    expect(kinds.of({ ...call('echo'), network: { ...NETWORK, protocolVersion: '2' } })).not.toBe(http11);
  });

  it('keeps at most 512 kinds, starting again when full: tool names come from clients', () => {
    const kinds = new OperationKinds('weather', false);
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
    const kinds = new OperationKinds('weather', false);
    const read: TelemetryOperation = { method: 'resources/read', params: { uri: 'weather://x' }, id: 'a' };
    const attributes = spanAttributesOf(kinds.of(read), read);
    expect(Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined))).toStrictEqual({
      'mcp.method.name': 'resources/read',
      'mcp42.server.name': 'weather',
      'mcp.resource.uri': 'weather://x',
      'jsonrpc.request.id': 'a',
    });
    expect(kinds.of(read).metric['mcp.resource.uri']).toBeUndefined();
    expect(new OperationKinds('weather', true).of(read).spanName).toBe('resources/read weather://x');
  });

  it('builds the metric attributes of each failure once per error.type', () => {
    const kind = new OperationKinds('weather', false).of(call('echo'));
    const failure = failureOf('tools/call', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } })!;
    const attributes = metricFailureOf(kind, failure);
    expect(attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(metricFailureOf(kind, failure)).toBe(attributes);
    expect(kind.metric['error.type']).toBeUndefined();
  });
});
