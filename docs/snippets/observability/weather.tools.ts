import { Injectable } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { McpTool, type McpContext } from 'mcp42';

const tracer = trace.getTracer('weather');

// #region tools
@Injectable()
export class WeatherTools {
  @McpTool({ description: 'Forecast for Paris' })
  async forecast(_args: unknown, ctx: McpContext): Promise<string> {
    // The `tools/call forecast` span is active here: this span is its child, and so is an outgoing
    // HTTP call of an instrumented client.
    return tracer.startActiveSpan('forecast backend', async (span) => {
      try {
        // The progress notification carries the trace context in its _meta, for the client to join.
        ctx.reportProgress({ progress: 1, total: 2 });
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 'Sunny, 21 °C';
      } finally {
        span.end();
      }
    });
  }
}
// #endregion tools
