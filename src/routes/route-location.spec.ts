import 'reflect-metadata';
import { RequestMethod, VERSION_NEUTRAL, VersioningType } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';
import type { RouteDescription } from './route-description.js';
import { locateRoute } from './route-location.js';

const route = (path: string, version?: RouteDescription['version'], method = 'GET'): RouteDescription => ({
  method,
  path,
  version,
  params: [],
  handler: () => undefined,
  successStatus: 200,
});

describe('locateRoute', () => {
  it('serves a route as it is without prefix or versioning', () => {
    expect(locateRoute(route('/api/forecasts/:city'), new ApplicationConfig())).toEqual({
      path: '/api/forecasts/:city',
      headers: {},
    });
  });

  it('puts the global prefix in front, unless the route is excluded from it', () => {
    const config = new ApplicationConfig();
    config.setGlobalPrefix('/v0/');
    config.setGlobalPrefixOptions({
      exclude: [{ path: 'health', requestMethod: RequestMethod.GET, pathRegex: /^\/health\/?$/ }],
    });
    expect(locateRoute(route('/items'), config).path).toBe('/v0/items');
    expect(locateRoute(route('/health'), config).path).toBe('/health');
    expect(locateRoute(route('/health', undefined, 'POST'), config).path).toBe('/v0/health');
  });

  it('puts a URI version after the prefix, from the route or the default version', () => {
    const config = new ApplicationConfig();
    config.setGlobalPrefix('api');
    config.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
    expect(locateRoute(route('/items'), config).path).toBe('/api/v1/items');
    expect(locateRoute(route('/items', ['3', '2']), config).path).toBe('/api/v3/items');
    expect(locateRoute(route('/items', [VERSION_NEUTRAL, '2']), config).path).toBe('/api/v2/items');
  });

  it('sends a header or media-type version as a header', () => {
    const header = new ApplicationConfig();
    header.enableVersioning({ type: VersioningType.HEADER, header: 'X-API-Version' });
    expect(locateRoute(route('/items', '2'), header)).toEqual({ path: '/items', headers: { 'x-api-version': '2' } });
    const media = new ApplicationConfig();
    media.enableVersioning({ type: VersioningType.MEDIA_TYPE, key: 'v=' });
    expect(locateRoute(route('/items', '2'), media).headers).toEqual({ accept: 'application/json;v=2' });
  });
});
