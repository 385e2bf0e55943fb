import { RequestMethod, VersioningType, type VersioningOptions } from '@nestjs/common';

/** What `@Version()` and `defaultVersion` take (Nest does not export the name from its root). */
type VersionValue = VersioningOptions['defaultVersion'];
import type { ApplicationConfig } from '@nestjs/core';
import type { RouteDescription } from './route-description.js';

/** Where the application's router serves a route: its path with prefix and version, and version headers. */
export interface RouteLocation {
  /** The path template, `/` first, with `:name` tokens still to fill. */
  readonly path: string;
  /** Headers the route's version needs (header or media-type versioning). */
  readonly headers: Readonly<Record<string, string>>;
}

interface PrefixExclusion {
  readonly pathRegex?: RegExp;
  readonly requestMethod?: RequestMethod;
}

/**
 * Locates a route as Nest's router mounted it: the global prefix (unless the route is excluded
 * from it) and the version (`@Version()`, the controller's, or the versioning's `defaultVersion`)
 * as the application's versioning puts it: in the URI, a header or the media type. Read once the
 * application is initialised (`setGlobalPrefix()` and `enableVersioning()` come before `init()`).
 */
export function locateRoute(route: RouteDescription, config: ApplicationConfig): RouteLocation {
  const versioning = config.getVersioning();
  const version = firstVersion(route.version ?? (versioning ? versioning.defaultVersion : undefined));
  let path = route.path;
  const headers: Record<string, string> = {};
  if (versioning && version !== undefined) {
    if (versioning.type === VersioningType.URI) {
      const prefix = versioning.prefix === false ? '' : (versioning.prefix ?? 'v');
      path = `/${prefix}${version}${path === '/' ? '' : path}`;
    } else if (versioning.type === VersioningType.HEADER) {
      headers[versioning.header.toLowerCase()] = version;
    } else if (versioning.type === VersioningType.MEDIA_TYPE) {
      headers.accept = `application/json;${versioning.key}${version}`;
    }
  }
  const prefix = config.getGlobalPrefix().replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !isExcluded(route, config.getGlobalPrefixOptions().exclude as PrefixExclusion[] | undefined)) {
    path = `/${prefix}${path === '/' ? '' : path}`;
  }
  return { path, headers };
}

/** The version a request names to reach a route serving several: the first that is not neutral. */
function firstVersion(version: VersionValue | undefined): string | undefined {
  const versions = Array.isArray(version) ? version : [version];
  return versions.find((candidate): candidate is string => typeof candidate === 'string' && candidate !== '');
}

function isExcluded(route: RouteDescription, exclude: readonly PrefixExclusion[] | undefined): boolean {
  const method = RequestMethod[route.method as keyof typeof RequestMethod];
  return (exclude ?? []).some(
    (entry) =>
      entry.pathRegex?.test(route.path) === true &&
      (entry.requestMethod === undefined ||
        entry.requestMethod === RequestMethod.ALL ||
        entry.requestMethod === method),
  );
}
