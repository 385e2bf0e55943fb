import { ConsoleLogger } from '@nestjs/common';
import { trace } from '@opentelemetry/api';

// #region nest-logger
/** Nest's console logger, each line of a traced request ending with its trace and span ids. */
export class TraceLogger extends ConsoleLogger {
  protected override formatMessage(...args: Parameters<ConsoleLogger['formatMessage']>): string {
    const line = super.formatMessage(...args);
    const span = trace.getActiveSpan()?.spanContext();
    if (span === undefined) return line;
    return line.replace(/\n$/, ` trace_id=${span.traceId} span_id=${span.spanId}\n`);
  }
}
// main.ts: NestFactory.create(AppModule, { logger: new TraceLogger() })
// #endregion nest-logger

// #region pino
/**
 * For pino (nestjs-pino: `LoggerModule.forRoot({ pinoHttp: { mixin: traceFields } })`): the fields
 * every log line of a traced request gets, by the OpenTelemetry log data model's names.
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  if (span === undefined) return {};
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}` };
}
// #endregion pino
