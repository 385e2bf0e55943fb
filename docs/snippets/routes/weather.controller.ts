import {
  Body,
  Controller,
  Get,
  Param,
  ParseIntPipe,
  Post,
  Query,
  UseGuards,
  UsePipes,
  ValidationPipe,
} from '@nestjs/common';
import { McpRoute } from 'mcp42';
import { AdminGuard } from './admin.guard.js';
import { CreateAlertDto, ForecastQuery } from './forecast.dto.js';

// #region controller
@Controller('api')
@UsePipes(new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }))
export class WeatherController {
  // GET: listed with readOnlyHint: true. Input: { city: string (path), days?: integer 1-7 (query) }.
  @McpRoute({ name: 'get_forecast', description: 'Daily forecast of a city, up to 7 days' })
  @Get('forecasts/:city')
  forecast(@Param('city') city: string, @Query() query: ForecastQuery) {
    const forecasts = Array.from({ length: query.days }, (_, day) => ({ day: day + 1, summary: 'Sunny', highC: 24 }));
    return { city, days: query.days, forecasts };
  }

  // POST: no hints but those given. Input: { city: string, message: string } (the body's fields).
  @McpRoute({ name: 'create_alert', description: 'Creates a weather alert; admins only' })
  @Post('alerts')
  @UseGuards(AdminGuard)
  createAlert(@Body() body: CreateAlertDto) {
    return { id: 1, ...body, createdAt: new Date().toISOString() };
  }

  // Not decorated: not a tool.
  @Get('stations/:id')
  station(@Param('id', ParseIntPipe) id: number) {
    return { id };
  }
}
// #endregion controller
