/// <reference types="jest" />
// The line above stands in for the project's tsconfig (`"types": ["vitest/globals"]` in a Nest 12
// project, @types/jest in a Nest 11 one): the docs test compiles this file with Jest's globals.
// #region unit
import { Test } from '@nestjs/testing';
import { McpToolError } from 'mcp42';
import { WeatherService } from './weather.service.js';
import { WeatherTools } from './weather.tools.js';

describe('WeatherTools', () => {
  const tools = new WeatherTools(new WeatherService());

  it('returns the forecast of a known city', () => {
    expect(tools.getForecast({ city: 'Lisbon' })).toBe('Lisbon: sunny, 24 °C');
  });

  it('answers an unknown city with an McpToolError, which the model reads', () => {
    expect(() => tools.getForecast({ city: 'Atlantis' })).toThrow(McpToolError);
    expect(() => tools.getForecast({ city: 'Atlantis' })).toThrow('No forecast for Atlantis');
  });
});
// #endregion unit

// #region testing-module
describe('WeatherTools, built by Nest with a stand-in service', () => {
  let tools: WeatherTools;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      providers: [WeatherTools, { provide: WeatherService, useValue: { forecast: () => 'snow, -3 °C' } }],
    }).compile();
    tools = moduleRef.get(WeatherTools);
  });

  it('returns what the service says', () => {
    expect(tools.getForecast({ city: 'Oslo' })).toBe('Oslo: snow, -3 °C');
  });
});
// #endregion testing-module
