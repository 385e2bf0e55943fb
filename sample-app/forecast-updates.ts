import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpResourceRegistry } from '../src/index.js';
import { WeatherService } from './weather.service.js';
import { forecastUri } from './weather.uris.js';

/**
 * Tells clients subscribed to a city's forecast resource when the backend refreshed it, however
 * the refresh came about (the `refresh_forecasts` tool, or anything else calling the service).
 */
@Injectable()
export class ForecastUpdates implements OnModuleInit, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(
    private readonly weather: WeatherService,
    private readonly resources: McpResourceRegistry,
  ) {}

  onModuleInit(): void {
    this.subscription = this.weather.refreshed$.subscribe((city) => {
      this.resources.notifyUpdated(forecastUri(city));
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
