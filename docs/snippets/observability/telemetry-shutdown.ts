import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { otelSdk } from './instrumentation.js';

// #region shutdown
/** Sends the spans and metrics the SDK still holds before the process ends. */
@Injectable()
export class TelemetryShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return otelSdk.shutdown();
  }
}
// #endregion shutdown
