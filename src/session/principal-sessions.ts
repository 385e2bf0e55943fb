import type { ClientSession } from './client-session.js';

/**
 * The live sessions of each identified principal (`session.owner`), kept as sessions open and end:
 * `limits.sessionsPerPrincipal` is then checked in constant time, and the idle sessions of one
 * principal are found without walking every session of the process. Anonymous sessions are not
 * kept here (they count against `limits.sessions` only).
 */
export class PrincipalSessions {
  private readonly byPrincipal = new Map<string, Set<ClientSession>>();

  /** Live sessions of `principal`. */
  count(principal: string): number {
    return this.byPrincipal.get(principal)?.size ?? 0;
  }

  /** A snapshot of `principal`'s live sessions (safe to end them while going through it). */
  of(principal: string): ClientSession[] {
    return [...(this.byPrincipal.get(principal) ?? [])];
  }

  add(session: ClientSession): void {
    if (session.owner === undefined) return;
    const owned = this.byPrincipal.get(session.owner);
    if (owned) owned.add(session);
    else this.byPrincipal.set(session.owner, new Set([session]));
  }

  delete(session: ClientSession): void {
    if (session.owner === undefined) return;
    const owned = this.byPrincipal.get(session.owner);
    if (!owned?.delete(session) || owned.size > 0) return;
    // A principal with no session left costs nothing: one-off principals must not pile up here.
    this.byPrincipal.delete(session.owner);
  }
}
