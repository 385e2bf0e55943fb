import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from '../requests/http-request.js';

/** Why a request may not reach the endpoint: its 403's message, and what would admit it. */
export interface OriginRefusal {
  readonly message: string;
  /** The header refused, as sent (absent: `undefined`). */
  readonly value: string | undefined;
  /** The option whose list would admit it. */
  readonly option: 'allowedHosts' | 'allowedOrigins';
}

/** How many verdicts of each header a policy keeps, and the longest value kept: at most 64 KB of strings each. */
const KEPT_VERDICTS = 256;
const KEPT_LENGTH = 256;

/**
 * Decides which `Origin` and `Host` values may reach the endpoint: the defence against DNS
 * rebinding, where a web page on an attacker's name resolves to 127.0.0.1 and drives a local server.
 */
export class OriginPolicy {
  private readonly anyOrigin: boolean;
  private readonly exactOrigins: ReadonlySet<string>;
  /** `scheme://host` prefixes whose port may be anything. */
  private readonly anyPortOrigins: ReadonlySet<string>;
  private readonly anyHost: boolean;
  private readonly hosts: ReadonlySet<string>;
  /**
   * Verdicts of `Origin` and `Host` values seen, since judging an origin parses it as a URL (a host,
   * cut at its port and lower-cased, allocates), and a client sends the same values with every
   * request. Bounded: once full, or for a long value, the verdict is worked out each time (a client
   * sending junk cannot grow them, only fill them once).
   */
  private readonly originVerdicts = new Map<string, boolean>();
  private readonly hostVerdicts = new Map<string, boolean>();

  constructor(allowedOrigins: readonly string[], allowedHosts: readonly string[]) {
    this.anyOrigin = allowedOrigins.includes('*');
    const exact = new Set<string>();
    const anyPort = new Set<string>();
    for (const entry of allowedOrigins) {
      if (entry === '*') continue;
      if (entry.endsWith(':*')) anyPort.add(entry.slice(0, -2).toLowerCase());
      else exact.add(normalizeOrigin(entry) ?? entry.toLowerCase());
    }
    this.exactOrigins = exact;
    this.anyPortOrigins = anyPort;
    this.anyHost = allowedHosts.includes('*');
    this.hosts = new Set(allowedHosts.map((host) => host.toLowerCase()));
  }

  /** A request without `Origin` comes from no browser page and is allowed; `null` and junk are not. */
  allowsOrigin(origin: string | undefined): boolean {
    if (origin === undefined || this.anyOrigin) return true;
    const known = this.originVerdicts.get(origin);
    if (known !== undefined) return known;
    return kept(this.originVerdicts, origin, this.judgeOrigin(origin));
  }

  private judgeOrigin(origin: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (this.exactOrigins.has(url.origin)) return true;
    return this.anyPortOrigins.has(`${url.protocol}//${url.hostname}`);
  }

  /**
   * Why a request with these headers may not reach the endpoint, or `undefined` when it may: the
   * `Host` first, then the `Origin`.
   */
  refusal(headers: IncomingHttpHeaders): OriginRefusal | undefined {
    const host = headerValue(headers, 'host');
    if (!this.allowsHost(host)) return { message: 'Forbidden: Host not allowed', value: host, option: 'allowedHosts' };
    const origin = headerValue(headers, 'origin');
    if (!this.allowsOrigin(origin)) {
      return { message: 'Forbidden: Origin not allowed', value: origin, option: 'allowedOrigins' };
    }
    return undefined;
  }

  /** Compares the host name of a `Host` header, port ignored. A missing `Host` is refused. */
  allowsHost(host: string | undefined): boolean {
    if (this.anyHost) return true;
    if (!host) return false;
    const known = this.hostVerdicts.get(host);
    if (known !== undefined) return known;
    return kept(this.hostVerdicts, host, this.hosts.has(hostName(host).toLowerCase()));
  }
}

/** `verdict`, kept for `value` while `verdicts` has room and the value is short. */
function kept(verdicts: Map<string, boolean>, value: string, verdict: boolean): boolean {
  if (verdicts.size < KEPT_VERDICTS && value.length <= KEPT_LENGTH) verdicts.set(value, verdict);
  return verdict;
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

function hostName(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}
