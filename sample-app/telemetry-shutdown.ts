import type { OnApplicationShutdown } from '@nestjs/common';

/** Flushes and stops the OpenTelemetry SDK when the application shuts down: spans still batched are sent. */
export class TelemetryShutdown implements OnApplicationShutdown {
  constructor(private readonly stop: () => Promise<void>) {}

  onApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
