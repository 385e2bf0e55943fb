import type { Logger } from '@nestjs/common';
import type { OriginRefusal } from './origin-policy.js';

/** Distinct refused values remembered (each logged once); past it, new ones wait for the next window. */
const MAX_REMEMBERED = 256;
/** Lines per window at most, so that a flood of distinct values cannot fill the log. */
const LINES_PER_WINDOW = 10;
const WINDOW_MS = 60_000;
/** A logged value is cut to this length: it is the client's text. */
const MAX_VALUE_CHARS = 200;

/**
 * Logs a refused `Host` or `Origin` once per distinct value, with the option that would admit it: a
 * deployment behind a proxy whose `Host` is not listed would otherwise see only 403s in its clients
 * and nothing in its log. At most {@link LINES_PER_WINDOW} lines a minute and {@link MAX_REMEMBERED}
 * values remembered, whatever a client sends; once that many are remembered, the next window starts
 * afresh, so that a flood of junk cannot hide a real misconfiguration for good.
 */
export class OriginRefusalLog {
  private readonly logged = new Set<string>();
  private windowStart = 0;
  private linesInWindow = 0;

  constructor(private readonly logger: Pick<Logger, 'warn'>) {}

  note(refusal: OriginRefusal): void {
    const key = `${refusal.option}\u0000${refusal.value ?? ''}`;
    if (this.logged.has(key) || !this.takeLine() || this.logged.size >= MAX_REMEMBERED) return;
    this.logged.add(key);
    this.logger.warn(describe(refusal));
  }

  private takeLine(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.linesInWindow = 0;
      if (this.logged.size >= MAX_REMEMBERED) this.logged.clear();
    }
    if (this.linesInWindow >= LINES_PER_WINDOW) return false;
    this.linesInWindow++;
    return true;
  }
}

function describe({ option, value }: OriginRefusal): string {
  const shown = value === undefined ? undefined : JSON.stringify(value.slice(0, MAX_VALUE_CHARS));
  if (option === 'allowedHosts') {
    return shown === undefined
      ? 'Refused a request without a Host header (403)'
      : `Refused a request for Host ${shown} (403): add its host name to the http.allowedHosts option to admit it ` +
          '(behind a proxy, the name clients use)';
  }
  return `Refused a request from Origin ${shown} (403): add it to the http.allowedOrigins option to admit pages of that origin`;
}
