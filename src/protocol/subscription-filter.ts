import { isPlainObject } from './json-rpc.codec.js';
import { invalidParams } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import type { SubscriptionFilter } from './modern.types.js';
import { isAbsoluteUri, MAX_URI_LENGTH } from './uri.js';

/** Most URIs one `subscriptions/listen` may ask updates of, and their characters in all. */
export const MAX_LISTEN_URIS = 1_000;
export const MAX_LISTEN_URI_CHARS = 256 * 1024;
/** Most task ids one `subscriptions/listen` may ask `notifications/tasks` of, and the longest id. */
export const MAX_LISTEN_TASK_IDS = 1_000;
const MAX_TASK_ID_LENGTH = 256;

const FLAGS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;

/**
 * Reads the `notifications` filter of `subscriptions/listen`: three flags and a list of resource
 * URIs, each checked as `resources/read` checks one, and the task ids of the tasks extension;
 * unknown fields are ignored.
 * @throws JsonRpcError -32602 for a filter that is not one, or too many or malformed URIs.
 */
export function readSubscriptionFilter(params: JsonRpcParams): SubscriptionFilter {
  const { notifications } = params;
  if (!isPlainObject(notifications)) throw invalidParams('notifications must be an object');
  const filter: { -readonly [K in keyof SubscriptionFilter]: SubscriptionFilter[K] } = {};
  for (const flag of FLAGS) {
    const value = notifications[flag];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw invalidParams(`notifications.${flag} must be a boolean`);
    if (value) filter[flag] = true;
  }
  const uris = notifications.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris)) throw invalidParams('notifications.resourceSubscriptions must be an array of URIs');
    if (uris.length > MAX_LISTEN_URIS) {
      throw invalidParams(`notifications.resourceSubscriptions may list at most ${MAX_LISTEN_URIS} URIs`);
    }
    let chars = 0;
    for (const uri of uris) {
      if (!isAbsoluteUri(uri)) {
        throw invalidParams(`resourceSubscriptions must list absolute URIs of at most ${MAX_URI_LENGTH} characters`);
      }
      chars += uri.length;
    }
    if (chars > MAX_LISTEN_URI_CHARS) {
      throw invalidParams(`notifications.resourceSubscriptions may hold at most ${MAX_LISTEN_URI_CHARS} characters`);
    }
    if (uris.length > 0) filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  const taskIds = notifications.taskIds;
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || taskIds.length > MAX_LISTEN_TASK_IDS) {
      throw invalidParams(`notifications.taskIds must be an array of at most ${MAX_LISTEN_TASK_IDS} task ids`);
    }
    for (const taskId of taskIds) {
      if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH) {
        throw invalidParams(`notifications.taskIds must list task ids of 1 to ${MAX_TASK_ID_LENGTH} characters`);
      }
    }
    if (taskIds.length > 0) filter.taskIds = [...new Set(taskIds as string[])];
  }
  return filter;
}
