/**
 * What resources, resource templates, prompts and completion send, held against the MCP
 * specification (2025-06-18 and 2025-11-25: `server/resources.mdx`, `server/prompts.mdx`,
 * `server/utilities/completion.mdx`, `schema/<version>/schema.ts`) and against what a strict client
 * accepts (the official SDK's zod schemas, `@modelcontextprotocol/sdk/types.js`): URIs a client
 * builds from a template, prompt results, completion errors, every protocol version, and
 * definitions added at run time.
 *
 * The tests that first failed say, above them, which line of the specification they hold the
 * server to; the plain tests next to them are the controls that show they are about the case
 * named, not about the fixture.
 */
import { Injectable, NotFoundException } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UriTemplate as SdkUriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  McpDefinitionError,
  McpModule,
  McpPrompt,
  McpPromptRegistry,
  McpResourceRegistry,
  McpResourceTemplateRegistry,
  McpResourceTemplate,
  type McpRuntimePromptOptions,
  type McpRuntimeResourceOptions,
  type McpRuntimeResourceTemplateOptions,
} from '../../../src/index.js';
import { useRawApp, type RawSession } from '../../utils/raw-http-client.js';
import type { RpcMessage } from '../../utils/sse-reader.js';
import { useSdkClients } from '../../utils/sdk-clients.js';

// ---------------------------------------------------------------------------------------------
// Fixture
// ---------------------------------------------------------------------------------------------

const CITY_TEMPLATE = 'review://city/{name}';
const STATION_TEMPLATE = 'review://station/{code}';

/** City names a completer offers: each is a value a user picks and a client then puts in the template. */
const CITY_NAMES = ["St. John's", 'Zürich', 'Lisbon'];

/** Prompt message contents a strict client refuses, by the field that makes it refuse. */
const MALFORMED_BLOCKS: Record<string, unknown> = {
  'annotations.priority above 1': { type: 'text', text: 'x', annotations: { priority: 2 } },
  'annotations.lastModified not a date-time': { type: 'text', text: 'x', annotations: { lastModified: 'yesterday' } },
  'image data not base64': { type: 'image', data: 'not base64!!', mimeType: 'image/png' },
  'embedded resource blob not base64': { type: 'resource', resource: { uri: 'review://a', blob: '!!!' } },
  'embedded resource mimeType a number': { type: 'resource', resource: { uri: 'review://a', text: 't', mimeType: 5 } },
  'resource_link size a string': { type: 'resource_link', uri: 'review://a', name: 'a', size: 'big' },
  'text _meta a string': { type: 'text', text: 'x', _meta: 'm' },
};

@Injectable()
class ReviewResources {
  @McpResourceTemplate({
    uriTemplate: CITY_TEMPLATE,
    name: 'city',
    mimeType: 'text/plain',
    complete: { name: CITY_NAMES },
  })
  city(variables: { name: string }): string {
    return `city:${variables.name}`;
  }

  @McpResourceTemplate({
    uriTemplate: STATION_TEMPLATE,
    name: 'station',
    complete: {
      code: () => {
        throw new NotFoundException('no station starts so');
      },
    },
  })
  station(variables: { code: string }): string {
    return `station:${variables.code}`;
  }
}

@Injectable()
class ReviewPrompts {
  @McpPrompt({
    name: 'block',
    description: 'One user message holding the block named by kind',
    args: [{ name: 'kind', required: true }],
  })
  block({ kind }: { kind: string }): unknown {
    if (kind === 'valid') return { role: 'user', content: { type: 'text', text: 'x', annotations: { priority: 1 } } };
    return { role: 'user', content: MALFORMED_BLOCKS[kind] };
  }

  @McpPrompt({
    name: 'lookup',
    description: 'A prompt whose completer finds nothing',
    args: [{ name: 'code' }],
    complete: {
      code: () => {
        throw new NotFoundException('no station starts so');
      },
    },
  })
  lookup(): string {
    return 'look it up';
  }
}

describe('resources, templates, prompts and completion against the specification (e2e)', () => {
  // Raw sessions see the exact answer, before any client parses it.
  const app = useRawApp({
    imports: [McpModule.forRoot({ name: 'spec-compliance-e2e', version: '1.0.0' })],
    providers: [ReviewResources, ReviewPrompts],
  });
  const sdk = useSdkClients();

  const initialize = (protocolVersion = '2025-11-25'): Promise<RawSession> =>
    app.client.initialize({ protocolVersion });

  /** The one answer to a request. */
  const call = (session: RawSession, method: string, params: Record<string, unknown>): Promise<RpcMessage> =>
    app.client.request(session, method, params);

  async function connect(): Promise<Client> {
    return (await sdk.connect(app.running.mcpUrl, { info: { name: 'spec-compliance-e2e', version: '1.0.0' } })).client;
  }

  // -------------------------------------------------------------------------------------------
  // Resource templates: the URIs clients actually build
  // -------------------------------------------------------------------------------------------

  describe('resources/read of URIs built from a template', () => {
    test('control: the RFC 6570 expansion with every reserved character percent-encoded reads the resource', async () => {
      const session = await initialize();
      expect(await call(session, 'resources/read', { uri: 'review://city/St.%20John%27s' })).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          contents: [{ uri: 'review://city/St.%20John%27s', mimeType: 'text/plain', text: "city:St. John's" }],
        },
      });
    });

    // completion.mdx: template arguments "may be auto-completed through the completion API"; the
    // official SDK's UriTemplate.expand (encodeURIComponent) leaves ' ( ) ! * unencoded, so the value
    // the server itself offered, put in the template the server itself listed, must read.
    // src/resources/uri-template.ts match(): uri-template-router only accepts unreserved characters
    // and %XX in a simple expression, so the URI is "not found" (-32002).
    test("the value completion offers (St. John's), expanded by the official SDK's UriTemplate, reads the resource", async () => {
      const client = await connect();
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: CITY_TEMPLATE },
        argument: { name: 'name', value: 'st' },
      });
      expect(completion.values).toEqual(["St. John's"]);
      const uri = new SdkUriTemplate(CITY_TEMPLATE).expand({ name: completion.values[0]! });
      expect(uri).toBe("review://city/St.%20John's");
      const read = await client.readResource({ uri });
      expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: "city:St. John's" }]);
    });

    test('control: Zürich percent-encoded as UTF-8 reads the resource', async () => {
      const session = await initialize();
      const answer = await call(session, 'resources/read', { uri: 'review://city/Z%C3%BCrich' });
      expect(answer.result).toEqual({
        contents: [{ uri: 'review://city/Z%C3%BCrich', mimeType: 'text/plain', text: 'city:Zürich' }],
      });
    });

    // src/protocol/uri.ts accepts IRIs on purpose ("non-ASCII allowed, for IRIs"), and RFC 3987 §3.1
    // maps an IRI to a URI by percent-encoding its UTF-8: review://city/Zürich is the URI above. A
    // static resource with such a URI is served; a template answers -32002 (resources.mdx: -32002 is
    // for a resource that does not exist).
    test('the IRI review://city/Zürich reads the same resource as its URI form', async () => {
      const session = await initialize();
      const answer = await call(session, 'resources/read', { uri: 'review://city/Zürich' });
      expect(answer.result).toEqual({
        contents: [{ uri: 'review://city/Zürich', mimeType: 'text/plain', text: 'city:Zürich' }],
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  // prompts/get: what a strict client parses
  // -------------------------------------------------------------------------------------------

  describe('prompts/get results a strict client can parse', () => {
    test('control: a well-formed block parses with the SDK GetPromptResultSchema', async () => {
      const session = await initialize();
      const answer = await call(session, 'prompts/get', { name: 'block', arguments: { kind: 'valid' } });
      expect(GetPromptResultSchema.safeParse(answer.result).success).toBe(true);
    });

    // schema.ts (2025-06-18 and 2025-11-25): Annotations.priority is 0..1, lastModified an ISO 8601
    // date-time, ImageContent.data and BlobResourceContents.blob are base64 (@format byte),
    // ResourceLink.size a number, _meta an object. src/prompts/prompt-result.mapper.ts promises a
    // TypeError (-32603) for "a malformed block", but isContentBlock (src/tools/tool-result.mapper.ts)
    // checks only type and the required strings, so the block is sent and the SDK client's getPrompt
    // rejects the whole result: the server answered, the user sees a client-side validation error.
    test.each(Object.keys(MALFORMED_BLOCKS))(
      'a message block with %s is refused by the server (-32603) instead of reaching the client',
      async (kind) => {
        const session = await initialize();
        const answer = await call(session, 'prompts/get', { name: 'block', arguments: { kind } });
        if (answer.error) {
          expect(answer.error.code).toBe(-32603);
        } else {
          expect(GetPromptResultSchema.safeParse(answer.result).error?.issues ?? []).toEqual([]);
        }
      },
    );
  });

  // -------------------------------------------------------------------------------------------
  // completion/complete errors
  // -------------------------------------------------------------------------------------------

  describe('completion/complete errors', () => {
    test('control: a prompt completer throwing NotFoundException is -32602 with its message', async () => {
      const session = await initialize();
      const answer = await call(session, 'completion/complete', {
        ref: { type: 'ref/prompt', name: 'lookup' },
        argument: { name: 'code', value: 'zz' },
      });
      expect(answer.error).toEqual({
        code: -32602,
        message: 'Invalid params: Completion of lookup: no station starts so',
      });
    });

    // completion.mdx "Error Handling" lists -32601, -32602 and -32603; -32002 is the resources/read
    // "Resource not found" code (resources.mdx), and its data.uri here is a URI template, not a
    // resource. In 0.3 the request runner mapped any 404 to -32002 whenever the item had a uri, and the
    // completion service gave completion items the template as uri; now only resource reads map 404.
    test('a template completer throwing NotFoundException is -32602 as for a prompt, not -32002', async () => {
      const session = await initialize();
      const answer = await call(session, 'completion/complete', {
        ref: { type: 'ref/resource', uri: STATION_TEMPLATE },
        argument: { name: 'code', value: 'zz' },
      });
      expect(answer.error).toEqual({
        code: -32602,
        message: 'Invalid params: Completion of station: no station starts so',
      });
    });
  });

  // -------------------------------------------------------------------------------------------
  // Older and newer protocol versions: the same methods, the same shapes
  // -------------------------------------------------------------------------------------------

  describe('every supported protocol version gets resources, templates, prompts and completion', () => {
    test.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('%s', async (version) => {
      const session = await initialize(version);
      expect(await call(session, 'resources/templates/list', {})).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          resourceTemplates: [
            { uriTemplate: CITY_TEMPLATE, name: 'city', mimeType: 'text/plain' },
            { uriTemplate: STATION_TEMPLATE, name: 'station' },
          ],
        },
      });
      expect((await call(session, 'resources/read', { uri: 'review://city/Lisbon' })).result).toEqual({
        contents: [{ uri: 'review://city/Lisbon', mimeType: 'text/plain', text: 'city:Lisbon' }],
      });
      expect((await call(session, 'prompts/get', { name: 'lookup' })).result).toEqual({
        description: 'A prompt whose completer finds nothing',
        messages: [{ role: 'user', content: { type: 'text', text: 'look it up' } }],
      });
      const completed = await call(session, 'completion/complete', {
        ref: { type: 'ref/resource', uri: CITY_TEMPLATE },
        argument: { name: 'name', value: 'l' },
      });
      expect(completed.result).toEqual({ completion: { values: ['Lisbon'], total: 1, hasMore: false } });
    });
  });

  // -------------------------------------------------------------------------------------------
  // Definitions added at run time: refused at once, or listable by a strict client
  // -------------------------------------------------------------------------------------------

  describe('runtime definitions: refused when added, or listed in a shape a strict client parses', () => {
    type Case =
      | { readonly what: 'resource'; readonly options: McpRuntimeResourceOptions }
      | { readonly what: 'template'; readonly options: McpRuntimeResourceTemplateOptions }
      | { readonly what: 'prompt'; readonly options: McpRuntimePromptOptions };

    /** Values from untyped sources (a database row, a JSON file) the TypeScript types would have refused. */
    const loose = <T>(value: unknown): T => value as T;

    const cases: [string, Case][] = [
      [
        'a resource whose description is null',
        { what: 'resource', options: { uri: 'review://db/1', name: 'row_1', description: loose<string>(null) } },
      ],
      [
        'a resource whose title is null',
        { what: 'resource', options: { uri: 'review://db/2', name: 'row_2', title: loose<string>(null) } },
      ],
      [
        'a resource whose icon has theme "blue"',
        {
          what: 'resource',
          options: {
            uri: 'review://db/3',
            name: 'row_3',
            icons: loose([{ src: 'https://x.test/i.png', theme: 'blue' }]),
          },
        },
      ],
      [
        'a resource whose icon sizes is a string',
        {
          what: 'resource',
          options: {
            uri: 'review://db/4',
            name: 'row_4',
            icons: loose([{ src: 'https://x.test/i.png', sizes: '48x48' }]),
          },
        },
      ],
      [
        'a resource whose _meta is a string',
        { what: 'resource', options: { uri: 'review://db/5', name: 'row_5', _meta: loose('m') } },
      ],
      [
        'a template whose description is null',
        {
          what: 'template',
          options: { uriTemplate: 'review://row/{id}', name: 'rows', description: loose<string>(null) },
        },
      ],
      [
        'a prompt whose argument description is null',
        {
          what: 'prompt',
          options: {
            name: 'row_prompt',
            description: 'from a row',
            args: [{ name: 'id', description: loose<string>(null) }],
          },
        },
      ],
    ];

    afterEach(() => {
      const resources = app.get(McpResourceRegistry);
      for (let n = 1; n <= 5; n++) resources.remove(`review://db/${n}`);
      app.get(McpResourceTemplateRegistry).remove('review://row/{id}');
      app.get(McpPromptRegistry).remove('row_prompt');
    });

    // schema.ts (2025-06-18, 2025-11-25): Resource/ResourceTemplate/Prompt `title?: string`,
    // `description?: string`, `_meta?: {[key: string]: unknown}`, Icon.sizes `string[]`, Icon.theme
    // "light" | "dark". The SDK client parses the whole page, so one such item makes resources/list
    // (or prompts/list) fail for every item of the page. src/resources/resource-definition.factory.ts
    // common() and src/prompts/prompt-definition.factory.ts copy title/description/_meta through
    // optional(), which only drops undefined; checkIcons (src/items/definition-checks.ts) checks
    // src alone. Annotations, by contrast, are checked exactly for this reason (checkAnnotations).
    test.each(cases)('%s', async (_label, item) => {
      const add = (): void => {
        if (item.what === 'resource') app.get(McpResourceRegistry).add(item.options, () => 'row');
        else if (item.what === 'template') app.get(McpResourceTemplateRegistry).add(item.options, () => 'row');
        else app.get(McpPromptRegistry).add(item.options, () => 'row');
      };
      let refused: unknown;
      try {
        add();
      } catch (error) {
        refused = error;
      }
      if (refused !== undefined) {
        expect(refused).toBeInstanceOf(McpDefinitionError);
        return;
      }
      const session = await initialize();
      const [method, schema] =
        item.what === 'resource'
          ? (['resources/list', ListResourcesResultSchema] as const)
          : item.what === 'template'
            ? (['resources/templates/list', ListResourceTemplatesResultSchema] as const)
            : (['prompts/list', ListPromptsResultSchema] as const);
      const answer = await call(session, method, {});
      expect(schema.safeParse(answer.result).error?.issues ?? []).toEqual([]);
    });

    test('control: the SDK client lists a well-formed runtime resource', async () => {
      app.get(McpResourceRegistry).add({ uri: 'review://db/1', name: 'row_1', description: 'a row' }, () => 'row');
      const client = await connect();
      expect((await client.listResources()).resources).toEqual([
        { uri: 'review://db/1', name: 'row_1', description: 'a row' },
      ]);
    });
  });
});
