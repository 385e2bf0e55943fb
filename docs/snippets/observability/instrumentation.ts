// #region sdk
// instrumentation.ts: imported first by main.ts, before Nest builds anything.
import { NodeSDK } from '@opentelemetry/sdk-node';

// The SDK reads the standard environment: OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL,
// OTEL_SERVICE_NAME, OTEL_METRIC_EXPORT_INTERVAL, OTEL_TRACES_SAMPLER...
export const otelSdk = new NodeSDK();
otelSdk.start();
// #endregion sdk
