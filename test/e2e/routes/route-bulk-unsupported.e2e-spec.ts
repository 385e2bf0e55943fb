/**
 * A controller exposed in bulk (`@McpRoute()` on the class) whose routes include some a tool cannot
 * take (a wildcard path, an array body): those are left out with a warning naming each route and
 * why, and the others are served. A route with its own `@McpRoute()` still fails bootstrap: it was
 * asked for by name.
 */
import { Body, Controller, Get, Injectable, Post, UseGuards, type CanActivate } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpModule, McpRoute } from '../../../src/index.js';
import { createMcpTestClient } from '../../../src/testing/index.js';
import { definitionError } from '../../utils/bootstrap-failure.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { startApp } from '../../utils/start-app.js';

class Item {
  @IsString()
  name!: string;
}

const OPTIONS = { name: 'stock', version: '1.0.0' };

@Injectable()
class OpenGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

describe('@McpRoute() on a controller with routes a tool cannot take', () => {
  it('leaves them out with a warning naming each route and why; its other routes are tools', async () => {
    @McpRoute({ methods: ['GET', 'POST'] })
    @Controller('stock')
    class StockController {
      @Get()
      listItems(): Item[] {
        return [{ name: 'bolt' }];
      }

      // `*` is the one wildcard both Fastify and Express (converting it to `{*path}`) register.
      @Get('files/*')
      readFile(): object {
        return {};
      }

      @Post()
      addItems(@Body() items: Item[]): object {
        return { added: items.length };
      }

      @Post('one')
      addItem(@Body() item: Item): object {
        return { added: item.name };
      }
    }
    const logger = new RecordingLogger();
    const running = await startApp(
      { imports: [McpModule.forRoot(OPTIONS)], controllers: [StockController] },
      { logger, bodyParser: true },
    );
    try {
      const client = await createMcpTestClient(running.app);
      const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(['add_item', 'list_items']);
      const result = await client.callTool({ name: 'add_item', arguments: { name: 'nut' } });
      expect(result.structuredContent).toEqual({ added: 'nut' });
      await client.close();
      const warnings = logger.at('warn').filter((line) => line.includes("left out of its controller's @McpRoute()"));
      expect(warnings).toHaveLength(2);
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^GET \/stock\/files\/\* \(StockController\.readFile\) .*wildcard segment/),
          expect.stringMatching(/^POST \/stock \(StockController\.addItems\) .*@Body\(\) takes the whole body/),
        ]),
      );
    } finally {
      await running.close();
    }
  });

  it('names in the public-cache warning only the routes it serves, never one it left out', async () => {
    @McpRoute({ methods: ['GET', 'POST'] })
    @UseGuards(OpenGuard)
    @Controller('parts')
    class PartsController {
      @Get()
      listParts(): Item[] {
        return [];
      }

      @Get('files/*')
      readPartFile(): object {
        return {};
      }

      @Post()
      addParts(@Body() items: Item[]): object {
        return { added: items.length };
      }
    }
    const logger = new RecordingLogger();
    const running = await startApp(
      {
        imports: [McpModule.forRoot({ ...OPTIONS, cache: { tools: { scope: 'public' } } })],
        controllers: [PartsController],
        providers: [OpenGuard],
      },
      { logger, bodyParser: true },
    );
    try {
      const cache = logger.at('warn').filter((line) => line.includes("options.cache.tools.scope is 'public'"));
      expect(cache).toHaveLength(1);
      expect(cache[0]).toContain('PartsController.listParts');
      expect(logger.at('warn').join('\n')).not.toMatch(
        /scope is 'public', but PartsController\.(readPartFile|addParts)/,
      );
    } finally {
      await running.close();
    }
  });

  it('still fails bootstrap for such a route with its own @McpRoute()', async () => {
    @McpRoute()
    @Controller('files')
    class FilesController {
      @Get()
      listFiles(): object[] {
        return [];
      }

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
});
