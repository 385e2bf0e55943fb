import { MetaKey } from './request-envelope.js';
import { encodeMessage, notificationMessage } from './json-rpc.codec.js';
import type { JsonRpcParams, RequestId } from './json-rpc.types.js';

/**
 * Serialises a notification for many `subscriptions/listen` streams at once: each stream's copy
 * differs only in the subscription id its `_meta` carries, so the rest is encoded once and each
 * copy is that text with the stream's id spliced in. Held in a queue, such a copy is a rope over
 * the shared text, not a fresh string of its whole length.
 * @returns the text for a stream, given its subscription id.
 */
export function subscriptionTagger(method: string, params: JsonRpcParams): (id: RequestId) => string {
  const untagged = encodeMessage(notificationMessage(method, { ...params, _meta: { [MetaKey.SubscriptionId]: null } }));
  // `_meta` is the last member of the params, and they of the message: the text ends with its value.
  const tail = 'null}}}';
  // Params that carry a `_meta` keep it in its place, not last: encoded whole for each stream.
  if (Object.hasOwn(params, '_meta') || !untagged.endsWith(tail)) {
    return (id) => encodeMessage(notificationMessage(method, { ...params, _meta: { [MetaKey.SubscriptionId]: id } }));
  }
  const head = untagged.slice(0, -tail.length);
  return (id) => `${head}${JSON.stringify(id)}}}}`;
}
