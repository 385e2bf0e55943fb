import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import {
  MAX_LISTEN_TASK_IDS,
  MAX_LISTEN_URI_CHARS,
  MAX_LISTEN_URIS,
  readSubscriptionFilter,
} from './subscription-filter.js';
import { thrownBy } from '../../test/utils/thrown.js';

/** A URI of exactly `length` characters. */
function uriOfLength(length: number, tag = 'a'): string {
  const head = `file:///${tag}/`;
  return head + 'x'.repeat(length - head.length);
}

function invalidParams(params: JsonRpcParams): string {
  const error = thrownBy(() => readSubscriptionFilter(params));
  expect(error).toBeInstanceOf(JsonRpcError);
  expect((error as JsonRpcError).code).toBe(-32602);
  expect((error as JsonRpcError).data).toBeUndefined();
  return error.message;
}

describe('the limits of subscriptions/listen', () => {
  it('are 1000 URIs and 256 KiB of their characters', () => {
    expect(MAX_LISTEN_URIS).toBe(1000);
    expect(MAX_LISTEN_URI_CHARS).toBe(262_144);
  });
});

describe('readSubscriptionFilter', () => {
  it('reads an empty filter as nothing asked', () => {
    expect(readSubscriptionFilter({ notifications: {} })).toStrictEqual({});
  });

  it('reads every flag that is true', () => {
    expect(
      readSubscriptionFilter({
        notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true },
      }),
    ).toStrictEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  });

  it('leaves out flags that are false', () => {
    const filter = readSubscriptionFilter({
      notifications: { toolsListChanged: false, promptsListChanged: true, resourcesListChanged: false },
    });
    expect(filter).toStrictEqual({ promptsListChanged: true });
    expect(Object.hasOwn(filter, 'toolsListChanged')).toBe(false);
  });

  it('ignores unknown fields, in the filter and beside it', () => {
    expect(
      readSubscriptionFilter({
        notifications: { toolsListChanged: true, loggingMessages: true, 'example.com/x': 'y' },
        other: 1,
      }),
    ).toStrictEqual({ toolsListChanged: true });
  });

  it('reads resource URIs, without duplicates, in the order first given', () => {
    const filter = readSubscriptionFilter({
      notifications: {
        resourceSubscriptions: ['file:///b.txt', 'weather://paris', 'file:///b.txt', 'urn:x:1', 'weather://paris'],
      },
    });
    expect(filter).toStrictEqual({ resourceSubscriptions: ['file:///b.txt', 'weather://paris', 'urn:x:1'] });
  });

  it('hands back a list of its own, not the one in the request', () => {
    const uris = ['file:///a.txt'];
    const filter = readSubscriptionFilter({ notifications: { resourceSubscriptions: uris } });
    expect(filter.resourceSubscriptions).not.toBe(uris);
    uris.push('file:///b.txt');
    expect(filter.resourceSubscriptions).toStrictEqual(['file:///a.txt']);
  });

  it('leaves out an empty list of URIs', () => {
    const filter = readSubscriptionFilter({ notifications: { resourceSubscriptions: [] } });
    expect(filter).toStrictEqual({});
  });

  it.each([
    ['missing', {}],
    ['null', { notifications: null }],
    ['an array', { notifications: [{ toolsListChanged: true }] }],
    ['a string', { notifications: 'toolsListChanged' }],
    ['true', { notifications: true }],
  ])('refuses notifications that are %s', (_label, params) => {
    expect(invalidParams(params)).toBe('Invalid params: notifications must be an object');
  });

  it.each(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'])(
    'refuses a %s that is not a boolean',
    (flag) => {
      for (const value of ['true', 1, 0, null, {}]) {
        expect(invalidParams({ notifications: { [flag]: value } })).toBe(
          `Invalid params: notifications.${flag} must be a boolean`,
        );
      }
    },
  );

  it.each([
    ['a string', 'file:///a.txt'],
    ['an object', { 0: 'file:///a.txt' }],
    ['null', null],
    ['true', true],
  ])('refuses resourceSubscriptions that are %s', (_label, value) => {
    expect(invalidParams({ notifications: { resourceSubscriptions: value } })).toBe(
      'Invalid params: notifications.resourceSubscriptions must be an array of URIs',
    );
  });

  it.each([
    ['a relative reference', 'docs/readme.md'],
    ['an empty string', ''],
    ['a number', 42],
    ['null', null],
    ['a URI with a space', 'file:///a b'],
    ['a URI with a line feed', 'file:///a\nb'],
    ['a URI beyond 8192 characters', uriOfLength(8193)],
  ])('refuses %s among the URIs', (_label, uri) => {
    expect(invalidParams({ notifications: { resourceSubscriptions: ['file:///ok', uri] } })).toBe(
      'Invalid params: resourceSubscriptions must list absolute URIs of at most 8192 characters',
    );
  });

  it('accepts a URI of exactly 8192 characters', () => {
    const uri = uriOfLength(8192);
    expect(readSubscriptionFilter({ notifications: { resourceSubscriptions: [uri] } })).toStrictEqual({
      resourceSubscriptions: [uri],
    });
  });

  it('accepts 1000 URIs and refuses 1001', () => {
    const uris = Array.from({ length: 1001 }, (_, i) => `file:///${i}`);
    const filter = readSubscriptionFilter({ notifications: { resourceSubscriptions: uris.slice(0, 1000) } });
    expect(filter.resourceSubscriptions).toHaveLength(1000);
    expect(invalidParams({ notifications: { resourceSubscriptions: uris } })).toBe(
      'Invalid params: notifications.resourceSubscriptions may list at most 1000 URIs',
    );
  });

  it('counts duplicates towards the number of URIs', () => {
    const uris = Array.from({ length: 1001 }, () => 'file:///same');
    expect(invalidParams({ notifications: { resourceSubscriptions: uris } })).toBe(
      'Invalid params: notifications.resourceSubscriptions may list at most 1000 URIs',
    );
  });

  it('accepts 256 KiB of URI characters and refuses one more', () => {
    const uris = Array.from({ length: 32 }, (_, i) => uriOfLength(8192, String(i).padStart(2, '0')));
    expect(uris.reduce((sum, uri) => sum + uri.length, 0)).toBe(MAX_LISTEN_URI_CHARS);
    expect(
      readSubscriptionFilter({ notifications: { resourceSubscriptions: uris } }).resourceSubscriptions,
    ).toHaveLength(32);
    expect(invalidParams({ notifications: { resourceSubscriptions: [...uris, 'a:'] } })).toBe(
      'Invalid params: notifications.resourceSubscriptions may hold at most 262144 characters',
    );
  });

  it('checks the flags before the URIs', () => {
    expect(invalidParams({ notifications: { resourceSubscriptions: 'x', toolsListChanged: 'yes' } })).toBe(
      'Invalid params: notifications.toolsListChanged must be a boolean',
    );
  });

  it('reads the task ids of the tasks extension, without duplicates, and refuses malformed ones', () => {
    expect(readSubscriptionFilter({ notifications: { taskIds: ['a', 'b', 'a'] } })).toEqual({ taskIds: ['a', 'b'] });
    expect(readSubscriptionFilter({ notifications: { taskIds: [] } })).toEqual({});
    const refused = 'Invalid params: notifications.taskIds must list task ids of 1 to 256 characters';
    expect(invalidParams({ notifications: { taskIds: [7] } })).toBe(refused);
    expect(invalidParams({ notifications: { taskIds: [''] } })).toBe(refused);
    expect(invalidParams({ notifications: { taskIds: ['x'.repeat(257)] } })).toBe(refused);
    const tooMany = Array.from({ length: MAX_LISTEN_TASK_IDS + 1 }, (_, i) => `t${i}`);
    expect(invalidParams({ notifications: { taskIds: tooMany } })).toBe(
      'Invalid params: notifications.taskIds must be an array of at most 1000 task ids',
    );
    expect(invalidParams({ notifications: { taskIds: 'a' } })).toBe(
      'Invalid params: notifications.taskIds must be an array of at most 1000 task ids',
    );
  });
});
