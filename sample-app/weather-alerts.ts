import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/** A weather alert, as `POST /api/alerts` creates it. */
export interface WeatherAlert {
  readonly id: string;
  readonly city: string;
  readonly message: string;
  readonly createdAt: string;
}

/** The alerts created so far, in memory (a stand-in for a real store). */
@Injectable()
export class WeatherAlerts {
  private readonly alerts: WeatherAlert[] = [];

  create(city: string, message: string): WeatherAlert {
    const alert = { id: randomUUID(), city, message, createdAt: new Date().toISOString() };
    this.alerts.push(alert);
    return alert;
  }

  /** Every alert, oldest first. */
  list(): readonly WeatherAlert[] {
    return [...this.alerts];
  }
}
