import { Body, Controller, Get, Param, Post, Query, UseGuards, UsePipes, ValidationPipe } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { McpRoute } from '../src/index.js';
import { AdminScopeGuard, ApiAuthGuard } from './api-auth.guards.js';
import { CreateAlertDto } from './create-alert.dto.js';
import { ForecastResponseDto } from './forecast-response.dto.js';
import { ForecastParams, ForecastQuery } from './forecast.query.js';
import { WeatherAlertDto } from './weather-alert.dto.js';
import { WeatherAlerts, type WeatherAlert } from './weather-alerts.js';
import { WeatherService } from './weather.service.js';

/** One day of `GET /api/forecasts/:city`. */
export interface ForecastDay {
  readonly day: number;
  readonly summary: string;
  readonly highC: number;
  readonly lowC: number;
}

/** The answer of `GET /api/forecasts/:city`. */
export interface ForecastResponse {
  readonly city: string;
  readonly days: number;
  readonly forecasts: readonly ForecastDay[];
}

/**
 * The sample's REST API, as an application has one before it thinks of MCP: its own guard (the
 * bearer tokens, when configured), its own validation. Two of its routes are also tools of the
 * `/mcp` server (`@McpRoute()`): a call runs the route itself, guards and pipes included. The
 * response types `@nestjs/swagger` documents become the tools' output schemas.
 */
@Controller('api')
@UseGuards(ApiAuthGuard)
@UsePipes(new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }))
export class WeatherController {
  constructor(
    private readonly weather: WeatherService,
    private readonly alerts: WeatherAlerts,
  ) {}

  @McpRoute({
    name: 'get_forecast',
    title: 'Forecast (REST API)',
    description: 'Daily forecast of a city from the REST API: summary and high/low in °C per day (3 days unless told)',
  })
  @ApiOkResponse({ type: ForecastResponseDto })
  @Get('forecasts/:city')
  forecast(@Param() params: ForecastParams, @Query() query: ForecastQuery): ForecastResponse {
    const forecasts = this.weather
      .forecast(params.city, query.days, 'metric')
      .map(({ day, condition, high, low }) => ({ day, summary: condition, highC: high, lowC: low }));
    return { city: params.city, days: query.days, forecasts };
  }

  @McpRoute({
    name: 'create_alert',
    title: 'Create a weather alert',
    description: 'Creates a weather alert for a city; needs the weather:admin scope when an admin token is configured',
    annotations: { openWorldHint: false },
  })
  @ApiCreatedResponse({ type: WeatherAlertDto })
  @Post('alerts')
  @UseGuards(AdminScopeGuard)
  createAlert(@Body() body: CreateAlertDto): WeatherAlert {
    return this.alerts.create(body.city, body.message);
  }
}
