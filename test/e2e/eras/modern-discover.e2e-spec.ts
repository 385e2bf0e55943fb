/**
 * `server/discover`, the fields every 2026-07-28 result carries (`resultType`, the server's
 * identity) and the caching hints of cacheable ones (SEP-2549): defaults, the module's `cache`
 * option, a resource's own `cache` option; lists in a stable order, their cursors sealed to the
 * caller. Every message received is checked against the revision's JSON Schema.
 */
import { Injectable } from '@nestjs/common';
import { McpModule, McpPromptRegistry, McpTool } from '../../../src/index.js';
import { bearer, BearerGuard, modernApp, MODERN_OPTIONS } from '../../fixtures/modern.fixture.js';
import { useModernApp } from '../../utils/modern-app.js';
import { Meta } from '../../utils/modern-client.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../../../src/protocol/index.js';

const SERVER_INFO = { name: MODERN_OPTIONS.name, version: MODERN_OPTIONS.version, title: MODERN_OPTIONS.title };

/** One request of every method that answers a result, and whether its result is cacheable. */
const EVERY_METHOD: readonly [string, Record<string, unknown>, boolean][] = [
  ['server/discover', {}, true],
  ['tools/list', {}, true],
  ['prompts/list', {}, true],
  ['resources/list', {}, true],
  ['resources/templates/list', {}, true],
  ['resources/read', { uri: 'test://plain' }, true],
  ['tools/call', { name: 'echo', arguments: { text: 'x' } }, false],
  ['prompts/get', { name: 'greeting', arguments: { who: 'Ada' } }, false],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'who', value: 'A' } },
    false,
  ],
];

@Injectable()
class OnlyTools {
  @McpTool({ name: 'only_tool', description: 'The one tool' })
  only(): string {
    return 'only';
  }

  @McpTool({ name: 'another_tool', description: 'Another tool' })
  another(): string {
    return 'another';
  }

  @McpTool({ name: 'third_tool', description: 'A third tool' })
  third(): string {
    return 'third';
  }
}

describe('server/discover and result fields (e2e)', () => {
  describe('an application serving every kind, without caching options', () => {
    const app = useModernApp(modernApp());
    const client = app.client;

    it('discovers the versions of both eras, the capabilities served, the instructions and the server', async () => {
      const result = await client.result('server/discover');
      expect(result).toEqual({
        resultType: 'complete',
        supportedVersions: [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS],
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          completions: {},
          logging: {},
        },
        instructions: MODERN_OPTIONS.instructions,
        _meta: { [Meta.ServerInfo]: SERVER_INFO },
        ttlMs: 0,
        cacheScope: 'public',
      });
    });

    it.each(EVERY_METHOD)('answers %s with resultType and the server identity', async (method, params, cacheable) => {
      const result = await client.result(method, params);
      expect(result.resultType).toBe('complete');
      expect(result._meta).toMatchObject({ [Meta.ServerInfo]: SERVER_INFO });
      if (cacheable) {
        expect(result).toMatchObject({ ttlMs: 0, cacheScope: method === 'server/discover' ? 'public' : 'private' });
      } else {
        expect(result).not.toHaveProperty('ttlMs');
        expect(result).not.toHaveProperty('cacheScope');
      }
    });

    it('keeps the caching hints of a resource that sets its own', async () => {
      expect(await client.result('resources/read', { uri: 'test://static' })).toMatchObject({
        contents: [{ uri: 'test://static', text: 'static text' }],
        ttlMs: 60_000,
        cacheScope: 'public',
      });
    });

    it('gives an input_required result no caching hints, and its final result them', async () => {
      const first = await client.result('resources/read', { uri: 'test://confirmed' });
      expect(first).toMatchObject({ resultType: 'input_required', _meta: { [Meta.ServerInfo]: SERVER_INFO } });
      expect(first).not.toHaveProperty('ttlMs');
      expect(first).not.toHaveProperty('cacheScope');
      const final = await client.result('resources/read', {
        uri: 'test://confirmed',
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        requestState: first.requestState,
      });
      expect(final).toMatchObject({ resultType: 'complete', contents: [{ text: 'the secret contents' }], ttlMs: 0 });
    });

    it('lists every kind in the same order every time', async () => {
      for (const [method, key] of [
        ['tools/list', 'tools'],
        ['prompts/list', 'prompts'],
        ['resources/list', 'resources'],
        ['resources/templates/list', 'resourceTemplates'],
      ] as const) {
        const first = (await client.result(method))[key];
        const second = (await client.result(method))[key];
        expect(second).toEqual(first);
        expect((first as unknown[]).length).toBeGreaterThan(0);
      }
      const names = ((await client.result('tools/list')).tools as { name: string }[]).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'regional', 'ask_name', 'order']));
    });

    // Was a bug, fixed (src/dispatch/served-capabilities.ts): capabilities counted the items
    // registered, disabled ones included, so a server whose prompts were all disabled still declared
    // prompts and served an empty prompts/list.
    it('drops the prompts capability and prompts/list while every prompt is disabled, and brings them back with one', async () => {
      const prompts = app.get(McpPromptRegistry);
      const names = ((await client.result('prompts/list')).prompts as { name: string }[]).map((prompt) => prompt.name);
      expect(names.sort()).toEqual(['ask_context', 'greeting']);
      try {
        for (const name of names) expect(prompts.disable(name)).toBe(true);
        const { capabilities } = await client.result('server/discover');
        expect(capabilities).not.toHaveProperty('prompts');
        // Completion stays: the resource template still has arguments to complete.
        expect(capabilities).toEqual({
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          completions: {},
          logging: {},
        });
        expect((await client.error(404, 'prompts/list')).code).toBe(-32601);
        expect(prompts.enable('greeting')).toBe(true);
        expect((await client.result('server/discover')).capabilities).toMatchObject({ prompts: { listChanged: true } });
        expect((await client.result('prompts/list')).prompts).toEqual([expect.objectContaining({ name: 'greeting' })]);
      } finally {
        for (const name of names) prompts.enable(name);
      }
    });

    it('lists x-mcp-header annotations in the tool input schema', async () => {
      const tools = (await client.result('tools/list')).tools as { name: string; inputSchema: unknown }[];
      expect(tools.find((tool) => tool.name === 'regional')?.inputSchema).toMatchObject({
        properties: { region: { 'x-mcp-header': 'Region' }, limit: { 'x-mcp-header': 'Limit' } },
      });
    });
  });

  describe('caching hints from the options', () => {
    const app = useModernApp(
      modernApp({
        cache: {
          discover: { ttlMs: 3_600_000 },
          tools: { ttlMs: 5_000, scope: 'public' },
          prompts: { scope: 'public' },
          resources: { ttlMs: 10 },
          resourceTemplates: { ttlMs: 20, scope: 'public' },
          reads: { ttlMs: 1_000 },
        },
      }),
    );
    const client = app.client;

    it.each([
      ['server/discover', {}, 3_600_000, 'public'],
      ['tools/list', {}, 5_000, 'public'],
      ['prompts/list', {}, 0, 'public'],
      ['resources/list', {}, 10, 'private'],
      ['resources/templates/list', {}, 20, 'public'],
      ['resources/read', { uri: 'test://plain' }, 1_000, 'private'],
      ['resources/read', { uri: 'test://items/7' }, 1_000, 'private'],
      // The resource's own hints win over the options.
      ['resources/read', { uri: 'test://static' }, 60_000, 'public'],
    ] as const)('stamps %s %j with ttlMs %d and cacheScope %s', async (method, params, ttlMs, cacheScope) => {
      const result = await client.result(method, params);
      expect({ ttlMs: result.ttlMs, cacheScope: result.cacheScope }).toEqual({ ttlMs, cacheScope });
    });
  });

  describe('an application without prompts or resources', () => {
    const app = useModernApp({
      imports: [
        McpModule.forRoot({ name: 'tools-only', version: '0.1.0', guards: [BearerGuard], limits: { pageSize: 2 } }),
      ],
      providers: [OnlyTools],
    });
    const client = app.client;

    it('discovers only what it serves: tools and logging, no instructions', async () => {
      const result = await client.result('server/discover');
      expect(result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
      expect(result).not.toHaveProperty('instructions');
      expect(result._meta).toEqual({ [Meta.ServerInfo]: { name: 'tools-only', version: '0.1.0' } });
    });

    it.each([
      ['prompts/list', {}],
      ['prompts/get', { name: 'greeting' }],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'test://plain' }],
      ['completion/complete', { ref: { type: 'ref/prompt', name: 'greeting' }, argument: { name: 'who', value: '' } }],
    ])('does not find %s (404, -32601)', async (method, params) => {
      expect((await client.error(404, method, params)).code).toBe(-32601);
    });

    it('serves prompts/list once a prompt is added at run time, and no longer once it is removed', async () => {
      const prompts = app.get(McpPromptRegistry);
      prompts.add({ name: 'late_prompt', description: 'Added at run time' }, () => 'late');
      try {
        expect((await client.result('server/discover')).capabilities).toMatchObject({
          prompts: { listChanged: true },
          completions: {},
        });
        expect((await client.result('prompts/list')).prompts).toEqual([
          { name: 'late_prompt', description: 'Added at run time' },
        ]);
      } finally {
        prompts.remove('late_prompt');
      }
      expect((await client.error(404, 'prompts/list')).code).toBe(-32601);
    });

    it('pages lists with the same caching hints on every page, cursors sealed to the caller', async () => {
      const alice = client.with(bearer('alice'));
      const first = await alice.result('tools/list');
      expect(first.tools).toHaveLength(2);
      expect(typeof first.nextCursor).toBe('string');
      const second = await alice.result('tools/list', { cursor: first.nextCursor });
      expect(second.tools).toHaveLength(1);
      expect(second).not.toHaveProperty('nextCursor');
      expect([first.cacheScope, second.cacheScope]).toEqual(['private', 'private']);
      const names = [...(first.tools as { name: string }[]), ...(second.tools as { name: string }[])].map(
        (t) => t.name,
      );
      expect(names.sort()).toEqual(['another_tool', 'only_tool', 'third_tool']);
      // Another principal (or an anonymous caller) cannot use alice's cursor.
      expect((await client.with(bearer('bob')).error(200, 'tools/list', { cursor: first.nextCursor })).code).toBe(
        -32602,
      );
      expect((await client.error(200, 'tools/list', { cursor: first.nextCursor })).code).toBe(-32602);
    });
  });
});
