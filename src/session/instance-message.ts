import type { InstanceMessage } from '../interfaces/mcp-shared-state.interface.js';
import { isLoggingLevel } from '../protocol/logging-level.js';

type Fields = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === 'string';
const isRequestId = (value: unknown): boolean =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
const isRecord = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const optional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);

/** What each kind must carry: a message of another shape is not acted on. */
const CHECKS: { readonly [K in InstanceMessage['kind']]: (message: Fields) => boolean } = {
  'client-response': (m) => isString(m.sessionId) && isRecord(m.response) && isRequestId(m.response.id),
  'cancel-call': (m) => isString(m.sessionId) && isRequestId(m.requestId) && optional(m.reason, isString),
  'session-ended': (m) => isString(m.sessionId),
  'session-changed': (m) => isString(m.sessionId),
  'stream-released': (m) => isString(m.sessionId),
  'roots-changed': (m) => isString(m.sessionId),
  'notify-connected': (m) => isString(m.method) && optional(m.params, isRecord),
  'log-all': (m) => isLoggingLevel(m.level) && optional(m.logger, isString),
  'resource-updated': (m) => isString(m.uri),
  'task-input': (m) => isString(m.taskId) && isRecord(m.responses),
  'task-cancel': (m) => isString(m.taskId),
  'standalone-many': (m) => Array.isArray(m.ids) && m.ids.every(isString) && isString(m.data),
};

/**
 * The message another instance sent, if it is one of the kinds this version knows, with the fields
 * its kind needs; `undefined` for anything else (an instance of another version during a rolling
 * upgrade, or a stray publish on the channel), which is ignored rather than trusted.
 */
export function instanceMessageOf(value: object): InstanceMessage | undefined {
  const fields = value as Fields;
  const kind = fields.kind;
  if (!isString(kind) || !Object.hasOwn(CHECKS, kind)) return undefined;
  return CHECKS[kind as InstanceMessage['kind']](fields) ? (value as InstanceMessage) : undefined;
}
