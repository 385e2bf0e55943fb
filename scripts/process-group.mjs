// Shared by the scripts that run children in process groups of their own (consumers.mjs,
// conformance.mjs): a signal to a child's whole group, so that what it started goes with it.

/** Sends `signal` to the process group of `child` (spawned with `detached: true`), or to the child alone. */
export function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}
