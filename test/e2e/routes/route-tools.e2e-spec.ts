/**
 * `@McpRoute()` on a small application of its own, behind a global prefix: the flat input built
 * from path parameters, built-in pipes, query and body DTOs; what the in-process request carries
 * (the allowed headers only) and what comes back (text, JSON, errors by status, a body too large);
 * cancellation reaching the route; the `items` option; definitions that fail bootstrap.
 */
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  Header,
  Headers,
  Injectable,
  Param,
  ParseEnumPipe,
  ParseIntPipe,
  Post,
  Query,
  Req,
  ValidationPipe,
  type CanActivate,
  type ExecutionContext,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Type } from 'class-transformer';
import { IsString, Length, ValidateNested } from 'class-validator';
import type { IncomingMessage } from 'node:http';
import { McpModule, McpRoute, McpTool, type McpModuleOptions } from '../../../src/index.js';
import { definitionError } from '../../utils/bootstrap-failure.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { onlyText } from '../../utils/tool-results.js';
import { until } from '../../utils/wait.js';

enum Shelf {
  Top = 'top',
  Bottom = 'bottom',
}

class Label {
  @IsString()
  text!: string;
}

class NoteBody {
  @IsString()
  @Length(1, 20)
  title!: string;

  @ValidateNested()
  @Type(() => Label)
  label!: Label;
}

/** Admits requests whose `x-role` header says admin. */
@Injectable()
class AdminHeaderGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest<IncomingMessage>().headers['x-role'] === 'admin';
  }
}

const COUNT_SCHEMA = {
  type: 'object',
  properties: { n: { type: 'integer' } },
  required: ['n'],
  additionalProperties: false,
} as const;

/** What the routes saw, for the assertions. */
const seen = { aborted: 0 };

@Controller('store')
@UsePipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }))
class StoreController {
  @McpRoute({ name: 'get_item', description: 'One item' })
  @Get('items/:id')
  item(@Param('id', ParseIntPipe) id: number, @Query('shelf', new ParseEnumPipe(Shelf)) shelf: Shelf): object {
    return { id, shelf, idType: typeof id };
  }

  @McpRoute({ name: 'add_note', description: 'Adds a note' })
  @Post('notes/:board')
  note(@Param('board') board: string, @Body() body: NoteBody): object {
    if (body.title === 'refused') throw new BadRequestException(['title is refused', 'try another title']);
    return { board, ...body };
  }

  @McpRoute({ name: 'echo_headers', description: 'The headers the route saw' })
  @Get('headers')
  headers(@Headers() headers: Record<string, string>): object {
    return { authorization: headers.authorization, cookie: headers.cookie, tenant: headers['x-tenant'] };
  }

  @McpRoute({ name: 'plain_text', description: 'Text' })
  @Get('text')
  @Header('content-type', 'text/plain; charset=utf-8')
  text(): string {
    return 'plain words';
  }

  @McpRoute({ name: 'big', description: 'Too much' })
  @Get('big')
  big(): object {
    return { data: 'x'.repeat(5_000) };
  }

  @McpRoute({ name: 'typed', description: 'Declares its result', output: COUNT_SCHEMA })
  @Get('typed/:n')
  typed(@Param('n') n: string): object {
    return { n: Number(n) };
  }

  @McpRoute({ name: 'boom', description: 'Fails' })
  @Get('boom')
  boom(): never {
    throw new Error('secret detail of the database');
  }

  @McpRoute({ name: 'admin_only', description: 'For admins' })
  @Get('admin')
  @UseGuards(AdminHeaderGuard)
  admin(): object {
    return { ok: true };
  }

  @McpRoute({ name: 'slow', description: 'Never answers in time', timeoutMs: 300 })
  @Get('slow')
  async slow(@Req() request: IncomingMessage | { raw: IncomingMessage }): Promise<object> {
    // Fastify's request wraps the Node one. Destroyed with the call's abort reason: an 'error' event.
    const raw = 'raw' in request ? request.raw : request;
    await new Promise<void>((resolve) => {
      raw.once('error', () => {
        seen.aborted++;
        resolve();
      });
    });
    return {};
  }
}

const OPTIONS: McpModuleOptions = {
  name: 'routes',
  version: '1.0.0',
  routes: { forwardHeaders: ['authorization', 'x-tenant'], maxResponseBytes: 1_000 },
};

interface Result {
  readonly content: readonly { type: string; text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

describe('@McpRoute() (e2e)', () => {
  let running: RunningApp;
  const sdk = useSdkClients();

  beforeAll(async () => {
    running = await startApp(
      { imports: [McpModule.forRoot(OPTIONS)], controllers: [StoreController] },
      { prefix: 'api', bodyParser: true },
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  const connect = async (headers: Record<string, string> = {}): Promise<Client> =>
    (await sdk.connect(running.mcpUrl, { headers })).client;
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> =>
    (await client.callTool({ name, arguments: args })) as Result;

  it('describes path parameters, built-in pipes and nested body DTOs in one flat schema without $ref', async () => {
    const { tools } = await (await connect()).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('get_item')?.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, shelf: { enum: ['top', 'bottom'] } },
      required: ['id', 'shelf'],
      additionalProperties: false,
    });
    expect(byName.get('get_item')?.annotations).toEqual({ readOnlyHint: true });
    const note = byName.get('add_note')!;
    expect(note.inputSchema).toMatchObject({
      properties: {
        board: { type: 'string' },
        title: { type: 'string', minLength: 1, maxLength: 20 },
        label: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
      required: ['board', 'title', 'label'],
    });
    expect(JSON.stringify(note)).not.toContain('$ref');
    expect(note.annotations).toBeUndefined();
  });

  it('calls the route under the global prefix with the arguments where it takes them', async () => {
    const client = await connect();
    expect((await call(client, 'get_item', { id: 7, shelf: 'top' })).structuredContent).toEqual({
      id: 7,
      shelf: 'top',
      idType: 'number',
    });
    const note = await call(client, 'add_note', { board: 'a b/c', title: 'Hi', label: { text: 'red' } });
    expect(note.structuredContent).toEqual({ board: 'a b/c', title: 'Hi', label: { text: 'red' } });
  });

  it("answers a 4xx with the error body's messages", async () => {
    const result = await call(await connect(), 'add_note', { board: 'b', title: 'refused', label: { text: 'x' } });
    expect(result.isError).toBe(true);
    expect(onlyText(result)).toBe('Tool add_note failed: title is refused; try another title');
  });

  it('forwards only the allowed headers of the MCP request', async () => {
    const client = await connect({ authorization: 'Bearer abc', cookie: 'sid=1', 'x-tenant': 'acme' });
    expect((await call(client, 'echo_headers')).structuredContent).toEqual({
      authorization: 'Bearer abc',
      tenant: 'acme',
    });
  });

  it('sends a text body as text', async () => {
    const result = await call(await connect(), 'plain_text');
    expect(result).toEqual({ content: [{ type: 'text', text: 'plain words' }] });
  });

  it('refuses a body past routes.maxResponseBytes with an error result', async () => {
    const result = await call(await connect(), 'big');
    expect(result.isError).toBe(true);
    expect(onlyText(result)).toContain('larger than 1000 bytes');
  });

  it('advertises the output schema it is given and checks the body against it', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'typed')?.outputSchema).toEqual(COUNT_SCHEMA);
    expect((await call(client, 'typed', { n: '4' })).structuredContent).toEqual({ n: 4 });
    const refused = await call(client, 'typed', { n: 'x' });
    expect(refused.isError).toBe(true);
    expect(onlyText(refused)).toContain('Tool typed produced an invalid result');
  });

  it('answers a 5xx with a generic error that leaks nothing', async () => {
    const result = await call(await connect(), 'boom');
    expect(result.isError).toBe(true);
    expect(onlyText(result)).toBe('Tool boom failed: an internal error occurred');
  });

  it("hides a tool the route's guards refuse the caller, and says a call is not allowed", async () => {
    const visitor = await connect();
    expect((await visitor.listTools()).tools.map((tool) => tool.name)).not.toContain('admin_only');
    const refused = await call(visitor, 'admin_only');
    expect(refused.isError).toBe(true);
    expect(onlyText(refused)).toContain('not allowed');
  });

  it('aborts the in-process request when the call times out', async () => {
    const before = seen.aborted;
    const result = await call(await connect(), 'slow');
    expect(result.isError).toBe(true);
    expect(onlyText(result)).toContain('timed out');
    await until(() => seen.aborted > before, 'the route to see its request aborted');
  });

  it('keeps the routes plain HTTP routes', async () => {
    const response = await fetch(`${running.baseUrl}/api/store/items/3?shelf=bottom`);
    expect(await response.json()).toEqual({ id: 3, shelf: 'bottom', idType: 'number' });
  });
});

describe('@McpRoute() and the items option (e2e)', () => {
  let running: RunningApp;
  const sdk = useSdkClients();

  afterAll(async () => {
    await running?.close();
  });

  it('serves only the route-backed tools the server names', async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ ...OPTIONS, items: { tools: ['plain_text'] } })],
      controllers: [StoreController],
    });
    const { client } = await sdk.connect(running.mcpUrl);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['plain_text']);
  });
});

describe('@McpRoute() definitions that fail bootstrap', () => {
  class Clash {
    @IsString()
    id!: string;
  }

  it('names both places of an argument declared twice', async () => {
    @Controller('clash')
    class ClashController {
      @McpRoute({ name: 'clash' })
      @Post(':id')
      clash(@Param('id') id: string, @Body() body: Clash): object {
        return { id, body };
      }
    }
    const error = await definitionError({ imports: [McpModule.forRoot(OPTIONS)], controllers: [ClashController] });
    expect(error.message).toContain('@McpRoute() on ClashController.clash');
    expect(error.message).toContain('"id"');
    expect(error.message).toContain('path parameter');
    expect(error.message).toContain('a field of the body (Clash)');
  });

  it('refuses a method that is not a route', async () => {
    @Injectable()
    class NotAController {
      @McpRoute({ name: 'nope' })
      nope(): void {}
    }
    const error = await definitionError({ imports: [McpModule.forRoot(OPTIONS)], providers: [NotAController] });
    expect(error.message).toContain('not a route handler');
  });

  it('refuses a route tool whose name an @McpTool() has, naming both', async () => {
    @Injectable()
    class Tools {
      @McpTool({ name: 'twice', description: 'A tool' })
      twice(): string {
        return '';
      }
    }
    @Controller('twice')
    class TwiceController {
      @McpRoute({ name: 'twice' })
      @Get()
      twice(): string {
        return '';
      }
    }
    const error = await definitionError({
      imports: [McpModule.forRoot(OPTIONS)],
      providers: [Tools],
      controllers: [TwiceController],
    });
    expect(error.message).toContain('Tools.twice');
    expect(error.message).toContain('TwiceController.twice');
  });
});
