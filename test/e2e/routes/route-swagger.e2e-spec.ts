/**
 * `@McpRoute()` with `@nestjs/swagger` (an optional peer): a controller exposed in bulk, described
 * from `@ApiProperty()`, `@ApiParam()`, `@ApiQuery()` and `@ApiOperation()` combined with
 * class-validator, its output schemas from the declared response types (an array wrapped in an
 * object); reached by both SDK clients (2025-11-25 and 2026-07-28) and the testing kit; and the
 * definitions that fail bootstrap.
 */
import {
  Body,
  Controller,
  Delete,
  Get,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
  Req,
  UsePipes,
  ValidationPipe,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, IsString, Length, Min } from 'class-validator';
import { McpModule, McpRoute } from '../../../src/index.js';
import { createMcpTestClient, type McpTestEra } from '../../../src/testing/index.js';
import { definitionError } from '../../utils/bootstrap-failure.js';
import { useModernSdkClients } from '../../utils/modern-sdk-clients.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { onlyText } from '../../utils/tool-results.js';

enum Genre {
  Novel = 'novel',
  Poetry = 'poetry',
}

class BookDto {
  @ApiProperty({ description: 'Book id', example: 1 })
  id!: number;

  @ApiProperty({ description: 'Title' })
  title!: string;

  @ApiProperty({ enum: Genre })
  genre!: Genre;
}

class BookListQuery {
  @ApiPropertyOptional({ enum: Genre, description: 'Only books of this genre' })
  @IsOptional()
  @IsEnum(Genre)
  genre?: Genre;

  @ApiPropertyOptional({ description: 'At most this many books', maximum: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit?: number;
}

class NewBook {
  @ApiProperty({ description: 'Title of the book', example: 'Dune' })
  @IsString()
  @Length(1, 200)
  title!: string;

  @ApiProperty({ enum: Genre, description: 'Its genre' })
  @IsEnum(Genre)
  genre!: Genre;
}

const BOOKS: BookDto[] = [
  { id: 1, title: 'Dune', genre: Genre.Novel },
  { id: 2, title: 'Odes', genre: Genre.Poetry },
];

@ApiTags('books')
@McpRoute()
@Controller('books')
@UsePipes(new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }))
class BooksController {
  @ApiOperation({ summary: 'Lists books', description: 'Filtered by genre, oldest first.' })
  @ApiOkResponse({ type: [BookDto] })
  @Get()
  listBooks(@Query() query: BookListQuery): BookDto[] {
    return BOOKS.filter((book) => query.genre === undefined || book.genre === query.genre).slice(0, query.limit);
  }

  @ApiOperation({ summary: 'One book by its id', operationId: 'find_book' })
  @ApiParam({ name: 'id', description: 'Book id', example: 1 })
  @ApiOkResponse({ type: BookDto, description: 'The book' })
  @Get(':id')
  getBook(@Param('id', ParseIntPipe) id: number): BookDto {
    const book = BOOKS.find((candidate) => candidate.id === id);
    if (!book) throw new NotFoundException(`No book ${id}`);
    return book;
  }

  @ApiQuery({ name: 'q', description: 'Words of the title' })
  @Get('search/by-title')
  searchBooks(@Req() request: { query: Record<string, string> }): { q: string; found: number } {
    const q = request.query.q ?? '';
    return { q, found: BOOKS.filter((book) => book.title.includes(q)).length };
  }

  /** Not GET: left out unless it says otherwise, as this one does. */
  @McpRoute({ description: 'Adds a book (not stored)' })
  @ApiCreatedResponse({ type: BookDto })
  @Post()
  addBook(@Body() body: NewBook): BookDto {
    return { id: 3, ...body };
  }

  @Delete(':id')
  removeBook(@Param('id') id: string): object {
    return { removed: id };
  }

  @McpRoute({ exclude: true })
  @Get('export/all')
  exportAll(): BookDto[] {
    return BOOKS;
  }

  @ApiExcludeEndpoint()
  @Get('internal/stats')
  stats(): object {
    return { count: BOOKS.length };
  }
}

const BOOK_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'number', description: 'Book id', examples: [1] },
    title: { type: 'string', description: 'Title' },
    genre: { type: 'string', enum: ['novel', 'poetry'] },
  },
  required: ['id', 'title', 'genre'],
};

/** What both SDK clients and the kit's client offer the assertions. */
interface AnyClient {
  listTools(): Promise<{ tools: { name: string; [key: string]: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

interface Result {
  readonly content: readonly { type: string; text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

describe('@McpRoute() with @nestjs/swagger (e2e)', () => {
  let running: RunningApp;
  const v1 = useSdkClients();
  const v2 = useModernSdkClients();

  beforeAll(async () => {
    running = await startApp(
      { imports: [McpModule.forRoot({ name: 'books', version: '1.0.0' })], controllers: [BooksController] },
      { bodyParser: true },
    );
  });

  afterAll(async () => {
    await running?.close();
  });

  const clients: Record<string, () => Promise<AnyClient>> = {
    'the SDK v1 client (2025-11-25)': async () => (await v1.connect(running.mcpUrl)).client as unknown as AnyClient,
    'the SDK v2 client (2026-07-28)': async () => (await v2.connect(running.mcpUrl)).client as unknown as AnyClient,
  };

  describe.each(Object.keys(clients))('through %s', (which) => {
    const connect = (): Promise<AnyClient> => clients[which]!();

    it("lists the controller's GET routes and the route that asks, and leaves the others out", async () => {
      const names = (await (await connect()).listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['add_book', 'find_book', 'list_books', 'search_books']);
    });

    it('describes the tools from swagger and class-validator together', async () => {
      const tools = new Map((await (await connect()).listTools()).tools.map((tool) => [tool.name, tool]));
      expect(tools.get('list_books')).toMatchObject({
        description: 'Lists books\n\nFiltered by genre, oldest first.',
        annotations: { readOnlyHint: true },
        inputSchema: {
          type: 'object',
          properties: {
            genre: { type: 'string', enum: ['novel', 'poetry'], description: 'Only books of this genre' },
            limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many books' },
          },
          additionalProperties: false,
        },
        outputSchema: {
          type: 'object',
          properties: { result: { type: 'array', items: BOOK_SCHEMA } },
          required: ['result'],
        },
      });
      expect(tools.get('list_books')?.inputSchema).not.toHaveProperty('required');
      expect(tools.get('find_book')).toMatchObject({
        description: 'One book by its id',
        inputSchema: {
          properties: { id: { type: 'integer', description: 'Book id', examples: [1] } },
          required: ['id'],
        },
        outputSchema: { ...BOOK_SCHEMA, description: 'The book' },
      });
      expect(tools.get('search_books')?.inputSchema).toEqual({
        type: 'object',
        properties: { q: { type: 'string', description: 'Words of the title' } },
        required: ['q'],
        additionalProperties: false,
      });
      const add = tools.get('add_book')!;
      expect(add).toMatchObject({
        description: 'Adds a book (not stored)',
        inputSchema: {
          properties: {
            title: {
              type: 'string',
              minLength: 1,
              maxLength: 200,
              description: 'Title of the book',
              examples: ['Dune'],
            },
            genre: { type: 'string', enum: ['novel', 'poetry'], description: 'Its genre' },
          },
          required: ['title', 'genre'],
        },
        outputSchema: BOOK_SCHEMA,
      });
      expect(add.annotations).toBeUndefined();
      expect(JSON.stringify([...tools.values()])).not.toContain('$ref');
    });

    it('answers with what the routes answer over HTTP, an array under result', async () => {
      const client = await connect();
      const overHttp = (await (await fetch(`${running.baseUrl}/books?genre=novel`)).json()) as unknown;
      const list = (await client.callTool({ name: 'list_books', arguments: { genre: 'novel' } })) as Result;
      expect(list.structuredContent).toEqual({ result: overHttp });
      const book = (await client.callTool({ name: 'find_book', arguments: { id: 2 } })) as Result;
      expect(book.structuredContent).toEqual(await (await fetch(`${running.baseUrl}/books/2`)).json());
      const added = (await client.callTool({
        name: 'add_book',
        arguments: { title: 'Emma', genre: 'novel' },
      })) as Result;
      expect(added.structuredContent).toEqual({ id: 3, title: 'Emma', genre: 'novel' });
      const search = (await client.callTool({ name: 'search_books', arguments: { q: 'Du' } })) as Result;
      expect(search.structuredContent).toEqual({ q: 'Du', found: 1 });
    });

    it('refuses arguments outside the combined schema, naming them', async () => {
      const result = (await (await connect()).callTool({ name: 'list_books', arguments: { limit: 99 } })) as Result;
      expect(result.isError).toBe(true);
      expect(onlyText(result)).toContain('limit');
    });
  });

  describe.each<McpTestEra>(['2025-11-25', '2026-07-28'])('through the testing kit, era %s', (era) => {
    it('lists and calls the swagger-described tools', async () => {
      const client = await createMcpTestClient(running.app, { era });
      try {
        const { tools } = await client.listTools();
        expect(tools.find((tool) => tool.name === 'find_book')?.outputSchema).toMatchObject(BOOK_SCHEMA);
        const result = (await client.callTool({ name: 'find_book', arguments: { id: 1 } })) as Result;
        expect(result.structuredContent).toEqual(BOOKS[0]);
        const missing = (await client.callTool({ name: 'find_book', arguments: { id: 9 } })) as Result;
        expect(missing.isError).toBe(true);
        expect(onlyText(missing)).toBe('Tool find_book failed: No book 9');
      } finally {
        await client.close();
      }
    });
  });
});

describe('@McpRoute() in bulk, definitions that fail bootstrap', () => {
  const OPTIONS = { name: 'books', version: '1.0.0' };

  it('names both routes of a derived name used twice', async () => {
    @McpRoute()
    @Controller('shelves')
    class ShelvesController {
      @Get()
      listBooks(): object[] {
        return [];
      }
    }
    const error = await definitionError({
      imports: [McpModule.forRoot(OPTIONS)],
      controllers: [BooksController, ShelvesController],
    });
    expect(error.message).toContain('list_books');
    expect(error.message).toContain('BooksController.listBooks');
    expect(error.message).toContain('ShelvesController.listBooks');
  });

  it('refuses options of one route on a controller', async () => {
    @McpRoute({ name: 'all' })
    @Controller('named')
    class NamedController {
      @Get()
      all(): object {
        return {};
      }
    }
    const error = await definitionError({ imports: [McpModule.forRoot(OPTIONS)], controllers: [NamedController] });
    expect(error.message).toContain('name describe one route; put them on its method');
  });

  it('says that wildcard path segments are not supported', async () => {
    @Controller('files')
    class FilesController {
      @McpRoute({ name: 'read_file' })
      @Get('*path')
      read(): object {
        return {};
      }
    }
    const error = await definitionError({ imports: [McpModule.forRoot(OPTIONS)], controllers: [FilesController] });
    expect(error.message).toContain('@McpRoute() on FilesController.read');
    expect(error.message).toContain('wildcard segment');
  });

  it('names both places of a swagger query field that is also a body field', async () => {
    class Note {
      @IsString()
      text!: string;
    }
    @Controller('notes')
    class NotesController {
      @McpRoute({ name: 'add_note' })
      @ApiQuery({ name: 'text' })
      @Post()
      add(@Body() body: Note): object {
        return body;
      }
    }
    const error = await definitionError({ imports: [McpModule.forRoot(OPTIONS)], controllers: [NotesController] });
    expect(error.message).toContain('"text"');
    expect(error.message).toContain('a field of the body (Note)');
    expect(error.message).toContain('@ApiQuery() text');
  });
});

describe('@McpRoute() with a documented response type that has no inline form', () => {
  it('serves the tool without an output schema rather than stopping the application', async () => {
    class Category {
      @ApiProperty()
      name!: string;

      @ApiProperty({ type: () => [Category] })
      children!: Category[];
    }
    @Controller('categories')
    class CategoriesController {
      @McpRoute({ name: 'root_category' })
      @ApiOkResponse({ type: Category })
      @Get()
      root(): Category {
        return { name: 'root', children: [] };
      }
    }
    const running = await startApp({
      imports: [McpModule.forRoot({ name: 'categories', version: '1.0.0' })],
      controllers: [CategoriesController],
    });
    try {
      const client = await createMcpTestClient(running.app);
      const [tool] = (await client.listTools()).tools;
      expect(tool).toMatchObject({ name: 'root_category' });
      expect(tool?.outputSchema).toBeUndefined();
      const result = (await client.callTool({ name: 'root_category', arguments: {} })) as Result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ name: 'root', children: [] });
      await client.close();
    } finally {
      await running.close();
    }
  });
});
