import { Injectable, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { McpArgs, McpCtx, McpTool, type McpContext } from 'mcp42';
import {
  CityNamePipe,
  Feature,
  FeatureGuard,
  NoFlightsError,
  NoFlightsFilter,
  TimingInterceptor,
} from './trip.pipeline.js';

export class TripArgs {
  @IsString()
  city!: string;

  @IsInt()
  @Min(1)
  @Max(30)
  nights!: number;
}

// #region tool
@Injectable()
@UseGuards(FeatureGuard)
@UseInterceptors(TimingInterceptor)
export class TripTools {
  @Feature('trips')
  @UseFilters(NoFlightsFilter)
  @McpTool({ name: 'plan_trip', description: 'Plans a trip to a city for some nights', input: TripArgs })
  planTrip(@McpArgs('city', CityNamePipe) city: string, @McpArgs() trip: TripArgs, @McpCtx() ctx: McpContext): string {
    if (city === 'Atlantis') throw new NoFlightsError(city);
    const client = ctx.clientInfo?.name ?? 'an unnamed client';
    return `Trip to ${city}: ${trip.nights} night(s), planned for ${client}`;
  }
}
// #endregion tool
