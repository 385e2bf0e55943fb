/**
 * The built sample with the standard OpenTelemetry environment: started with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` at an OTLP/HTTP receiver of this test (JSON encoding), it exports the
 * span of a tool call in the trace the client put in `params._meta`, and the duration metric; its
 * `/health` answers without the bearer token its MCP endpoint needs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { httpExchange } from '../../utils/http-exchange.js';
import { TEST_ADAPTER } from '../../utils/start-app.js';
import { orTimeout, until } from '../../utils/wait.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../../dist/sample-app/main.js', import.meta.url));
const READY_LINE = /Health: http:\/\/127\.0\.0\.1:\d+\/health/;
const TOKEN = 'telemetry-e2e-token';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

interface OtlpAttribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string; readonly intValue?: number | string };
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly OtlpAttribute[];
}
interface OtlpMetric {
  readonly name: string;
  readonly unit?: string;
  readonly histogram?: { readonly dataPoints: readonly { readonly attributes: readonly OtlpAttribute[] }[] };
}

/** An OTLP/HTTP receiver on a loopback port, keeping what it was sent (JSON encoding). */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  readonly metrics: OtlpMetric[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        resourceMetrics?: { scopeMetrics: { metrics: OtlpMetric[] }[] }[];
      };
      if (req.url === '/v1/traces') {
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
      } else if (req.url === '/v1/metrics') {
        for (const resource of body.resourceMetrics ?? [])
          for (const scope of resource.scopeMetrics) this.metrics.push(...scope.metrics);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const attribute = (attributes: readonly OtlpAttribute[], key: string): string | number | undefined => {
  const value = attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('the built sample exporting OpenTelemetry over OTLP', () => {
  const receiver = new OtlpReceiver();
  let child: ChildProcess;
  let output = '';
  let port: number;

  beforeAll(async () => {
    // sample-app.e2e-spec builds dist when it is stale; this one only needs it to be there.
    expect(existsSync(MAIN)).toBe(true);
    const endpoint = await receiver.listen();
    port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), NO_COLOR: '1' };
    delete env.NODE_OPTIONS;
    delete env.MCP_ADMIN_TOKEN;
    delete env.MCP_STATE_SECRET;
    Object.assign(env, {
      MCP_HTTP_ADAPTER: TEST_ADAPTER,
      MCP_BEARER_TOKEN: TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'mcp42-sample-e2e',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    await until(() => READY_LINE.test(output) || child.exitCode !== null, 'the sample to start', 30_000);
    expect(output).toMatch(/OpenTelemetry: exporting over OTLP/);
  }, 40_000);

  afterAll(async () => {
    child.kill('SIGTERM');
    await orTimeout(new Promise((resolve) => child.once('exit', resolve)), 5000);
    await receiver.close();
  });

  it('exports the tool call span in the trace of params._meta, and the duration metric', async () => {
    const client = new Client({ name: 'telemetry-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    await client.connect(transport);
    const result = await client.callTool({
      name: 'echo',
      arguments: { text: 'traced' },
      _meta: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'traced' }]);
    await transport.terminateSession();
    await client.close();

    await until(() => receiver.spans.some((span) => span.name === 'tools/call echo'), 'the span', 15_000);
    const span = receiver.spans.find((candidate) => candidate.name === 'tools/call echo')!;
    expect(span).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, kind: 2 });
    expect(attribute(span.attributes, 'gen_ai.tool.name')).toBe('echo');
    expect(attribute(span.attributes, 'mcp42.server.name')).toBe('mcp42-sample');
    expect(typeof attribute(span.attributes, 'mcp.session.id')).toBe('string');

    const isDuration = (metric: OtlpMetric): boolean =>
      metric.name === 'mcp.server.operation.duration' &&
      (metric.histogram?.dataPoints ?? []).some((point) => attribute(point.attributes, 'gen_ai.tool.name') === 'echo');
    await until(() => receiver.metrics.some(isDuration), 'the duration metric', 15_000);
    expect(receiver.metrics.find(isDuration)?.unit).toBe('s');
  }, 40_000);

  it('answers /health without credentials, outside the MCP endpoint’s guard', async () => {
    const mcp = await httpExchange(
      `http://127.0.0.1:${port}/mcp`,
      'POST',
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(mcp.status).toBe(401);
    // fetch, not httpExchange: that one takes a GET answered 200 for an SSE stream and leaves its body.
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', info: { mcp: { status: 'up' } } });
  });
});
