import 'reflect-metadata';
import { Controller, Get, Injectable, Module, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EchoTools } from '../../sample-app/echo.tools.js';
import {
  McpCompletion,
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpRoute,
  type McpCompletionRequest,
} from '../../src/index.js';
import { ITEM_TOPICS, ITEMS_FIXTURE } from '../targets.js';
import { appEndpointUrl, HOST } from './bench-server.js';
import { ItemVariables, SummaryArgs } from './items-dtos.js';

/** One of each kind of item the benchmark reads, gets or completes. */
@Injectable()
class ItemsFixture {
  @McpResource({ uri: ITEMS_FIXTURE.resourceUri, name: 'readme', mimeType: 'text/plain' })
  readme(): string {
    return ITEMS_FIXTURE.resourceText;
  }

  @McpResourceTemplate({
    uriTemplate: ITEMS_FIXTURE.uriTemplate,
    name: 'item',
    mimeType: 'application/json',
    variables: ItemVariables,
  })
  item({ id }: ItemVariables): object {
    return { id, name: `item ${id}` };
  }

  @McpPrompt({ name: ITEMS_FIXTURE.prompt, description: 'Asks for a summary of a topic', args: SummaryArgs })
  summarise({ topic, style = 'brief' }: SummaryArgs): string {
    return `Write a ${style} summary of ${topic}.`;
  }

  @McpCompletion({ prompt: ITEMS_FIXTURE.prompt, argument: 'topic' })
  topics({ value }: McpCompletionRequest): string[] {
    const typed = value.toLowerCase();
    return ITEM_TOPICS.filter((topic) => topic.toLowerCase().startsWith(typed));
  }
}

/** A route served as a tool: the echo tool's text, run through the HTTP handler in process. */
@Controller('bench')
class RouteFixture {
  @McpRoute({ name: 'route_echo', description: 'Echoes its text, as a REST route' })
  @Get('echo')
  echo(@Query('text') text: string): object {
    return { text };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'mcp42-items', version: '0.1.0' })],
  controllers: [RouteFixture],
  providers: [EchoTools, ItemsFixture],
})
class ItemsModule {}

export interface ItemsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The items fixture, created as the sample is (Express, mcp42 reads bodies itself); its echo tool is
 * the sample's, so the baseline is the load part's echo call.
 */
export async function startItems(): Promise<ItemsServer> {
  const app = await NestFactory.create(ItemsModule, { bodyParser: false, logger: false, forceCloseConnections: true });
  await app.listen(0, HOST);
  return { url: appEndpointUrl(app), close: () => app.close() };
}
