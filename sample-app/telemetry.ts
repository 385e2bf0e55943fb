/**
 * Starts the OpenTelemetry Node SDK when the standard OpenTelemetry environment asks for it
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, or a signal's own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
 * `..._METRICS_ENDPOINT`): OTLP trace and metric exporters, configured by the SDK itself from
 * `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_SERVICE_NAME`, `OTEL_METRIC_EXPORT_INTERVAL` and the rest.
 * Without them it starts nothing, and the SDK is never loaded (a dynamic import).
 *
 * @returns what flushes and stops the SDK at shutdown, or `undefined` when none was started.
 */
export async function startTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<(() => Promise<void>) | undefined> {
  const asked =
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
    env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
  if (!asked || env.OTEL_SDK_DISABLED === 'true') return undefined;
  // The SDK's defaults are a minute between metric exports and its own service name: a sample shows
  // its figures within seconds, under its own name, unless the environment says otherwise.
  env.OTEL_METRIC_EXPORT_INTERVAL ??= '5000';
  env.OTEL_SERVICE_NAME ??= 'mcp42-sample';
  // The sample writes no OpenTelemetry logs: Nest's logger goes to stdout (see the Observability guide).
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK();
  sdk.start();
  return () => sdk.shutdown();
}
