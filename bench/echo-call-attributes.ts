/**
 * The attributes mcp42 gives a 2025 session's `tools/call` of the echo tool over HTTP/1.1: the
 * metric's (one set for every call of that kind) and the span's (those plus the call's own). The
 * bench's SDK-only loads record exactly these, so that they cost what mcp42's telemetry records.
 */
export const ECHO_CALL_METRIC = Object.freeze({
  'mcp.method.name': 'tools/call',
  'mcp42.server.name': 'bench',
  'gen_ai.tool.name': 'echo',
  'gen_ai.operation.name': 'execute_tool',
  'mcp.protocol.version': '2025-11-25',
  'network.transport': 'tcp',
  'network.protocol.name': 'http',
  'network.protocol.version': '1.1',
});

export const ECHO_CALL_SPAN = Object.freeze({
  ...ECHO_CALL_METRIC,
  'client.address': '127.0.0.1',
  'client.port': 40001,
  'jsonrpc.request.id': '1',
  'mcp.session.id': '0f8fad5b-d9cb-469f-a165-70867728950e',
});
