import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP receiver on loopback that reads each export and drops it: where the batch exporters
 * of the telemetry loads send, so that what is measured is the export, not a collector.
 */
export class OtlpSink {
  /** Exports received (trace and metric requests). */
  exports = 0;
  bytes = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpSink> {
    let sink: OtlpSink | undefined;
    const server = http.createServer((req, res) => {
      req.on('data', (chunk: Buffer) => {
        if (sink) sink.bytes += chunk.length;
      });
      req.on('end', () => {
        if (sink) sink.exports++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sink = new OtlpSink(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return sink;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
