import { Logger, type ModuleMetadata, type Type } from '@nestjs/common';
import { ModernClient } from './modern-client.js';
import { RawHttpClient } from './raw-http-client.js';
import { startApp, type RunningApp, type StartAppOptions } from './start-app.js';

/** What {@link useModernApp} gives the tests of a describe. */
export interface ModernApp {
  /** The application, once the describe's `beforeAll` has run. */
  readonly running: RunningApp;
  /** A 2026-07-28 client of its endpoint. */
  readonly client: ModernClient;
  /** A raw 2025 client of its endpoint, for what the older era does beside it. */
  readonly legacy: RawHttpClient;
  /** A provider of the application. */
  get<T>(type: Type<T>): T;
}

export interface UseModernAppOptions extends StartAppOptions {
  /** Runs after each test, before its connections are dropped. */
  readonly afterEach?: (app: ModernApp) => void;
}

/**
 * An application of `metadata` listening from before the first test of the enclosing `describe`
 * until after its last. After each test every connection its clients opened is dropped.
 */
export function useModernApp(metadata: ModuleMetadata, options: UseModernAppOptions = {}): ModernApp {
  let running: RunningApp | undefined;
  const app: ModernApp = {
    get running(): RunningApp {
      if (running === undefined) throw new Error('the application starts in beforeAll');
      return running;
    },
    client: new ModernClient(() => app.running.mcpUrl),
    legacy: new RawHttpClient(() => app.running.mcpUrl),
    get: (type) => app.running.app.get(type),
  };

  beforeAll(async () => {
    running = await startApp(metadata, options);
  });

  afterEach(() => {
    options.afterEach?.(app);
    app.client.closeAll();
    app.legacy.closeAll();
  });

  afterAll(async () => {
    await running?.close();
    Logger.overrideLogger(false);
  });

  return app;
}
