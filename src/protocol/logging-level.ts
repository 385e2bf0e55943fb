/**
 * The RFC 5424 severities MCP logging uses, least severe first: a client's `logging/setLevel`
 * threshold lets through its own level and every one after it.
 */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** One RFC 5424 severity, as MCP spells it. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

const SEVERITY: ReadonlyMap<string, number> = new Map(LOGGING_LEVELS.map((level, index) => [level, index]));

/** Whether `value` names a level. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && SEVERITY.has(value);
}

/** Whether a message at `level` passes a client's `threshold`. */
export function passesThreshold(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return SEVERITY.get(level)! >= SEVERITY.get(threshold)!;
}
