import { Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import type { ServerTelemetry } from '../../interfaces/mcp-telemetry.interface.js';
import { applyCors, corsPolicyOf, type CorsPolicy } from './cors-policy.js';
import { writeTransportError } from '../responses/http-responses.js';
import { allowedMethods, reachesTransport, refuseMethod } from './method-refusal.js';
import { OriginPolicy } from './origin-policy.js';
import { OriginRefusalLog } from './origin-refusal-log.js';
import { isInProcess } from '../../in-process/in-process-connection.js';

/** Set on a request the door let through: the transport serves no other (see {@link wasAdmitted}). */
const ADMITTED = Symbol('mcp42:admitted');

/**
 * Whether the endpoint's door let this request through. The transport refuses a request that did
 * not meet the door, so a door that failed to install (a lost Fastify route marker, a platform
 * change) fails closed rather than serving without the Origin/Host check.
 */
export function wasAdmitted(raw: IncomingMessage): boolean {
  return (raw as IncomingMessage & { [ADMITTED]?: true })[ADMITTED] === true;
}

/**
 * What every request to the endpoint meets before any guard (as a middleware on Express, a Fastify
 * hook on Fastify): the `Host` and `Origin` check (403, logged once per value), the CORS preflight
 * (204) and CORS headers, and 405 for a method the endpoint does not serve. A request it lets through
 * goes on to the endpoint's guards and the transport. A request of the testing kit, made in process,
 * skips the Host/Origin check alone (see {@link isInProcess}): CORS and methods apply to it as to any.
 */
export class EndpointDoor {
  private readonly policy: OriginPolicy;
  private readonly cors: CorsPolicy | undefined;
  private readonly allow: string;
  private readonly refusals = new OriginRefusalLog(new Logger('McpTransport'));
  private readonly telemetry: ServerTelemetry;

  constructor(options: ResolvedMcpOptions) {
    this.telemetry = options.telemetry;
    this.policy = new OriginPolicy(options.http.allowedOrigins, options.http.allowedHosts);
    this.cors = corsPolicyOf(options);
    this.allow = allowedMethods(options);
  }

  /**
   * Whether the request goes on; when not, it has been answered. `platform.hijack()` runs first when
   * it is answered here (a Fastify reply must be told it has no reply to send); the platform's
   * object itself rather than a function calling it, so that no closure is made per request.
   */
  admit(raw: IncomingMessage, res: ServerResponse, platform?: { hijack(): unknown }): boolean {
    const refusal = isInProcess(raw) ? undefined : this.policy.refusal(raw.headers);
    if (refusal !== undefined) {
      this.refusals.note(refusal);
      this.telemetry.refused(refusal.option === 'allowedHosts' ? 'host_not_allowed' : 'origin_not_allowed');
      platform?.hijack();
      writeTransportError(res, 403, refusal.message);
      return false;
    }
    const { cors } = this;
    if (cors?.isPreflight(raw.method, raw.headers)) {
      platform?.hijack();
      applyCors(cors, raw, res);
      return false;
    }
    if (cors) applyCors(cors, raw, res);
    if (reachesTransport(raw.method)) {
      (raw as IncomingMessage & { [ADMITTED]?: true })[ADMITTED] = true;
      return true;
    }
    platform?.hijack();
    refuseMethod(raw, res, this.allow);
    return false;
  }
}
