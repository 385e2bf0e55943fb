import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OTLP/HTTP receiver on loopback that reads each export and drops it: where the batch exporters
 * of the telemetry loads send, so that what is measured is the export, not a collector.
 */
export class OtlpSink {
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    /** Exports received (trace and metric requests), and their bytes. */
    readonly received: { exports: number; bytes: number },
  ) {}

  static async start(): Promise<OtlpSink> {
    const received = { exports: 0, bytes: 0 };
    const server = http.createServer((req, res) => {
      req.on('data', (chunk: Buffer) => {
        received.bytes += chunk.length;
      });
      req.on('end', () => {
        received.exports++;
        // An empty export response in the request's own encoding (an empty protobuf message is no bytes).
        if (req.headers['content-type'] === 'application/x-protobuf') {
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        } else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new OtlpSink(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
