/// <reference types="jest" />
// The line above stands in for the project's tsconfig (`"types": ["vitest/globals"]` in a Nest 12
// project, @types/jest in a Nest 11 one): the docs test compiles this file with Jest's globals.
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createMcpTestClient, type McpTestEra } from 'mcp42/testing';
import { AppModule } from './app.module.js';
import { API_TOKEN } from './bearer-token.guard.js';

const headers = { authorization: 'Bearer test-token' };

describe.each<McpTestEra>(['2025-11-25', '2026-07-28'])('clear_cache, %s (e2e)', (era) => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(API_TOKEN)
      .useValue('test-token')
      .compile();
    app = moduleRef.createNestApplication({ bodyParser: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
  });

  // #region elicitation
  it('clears the cache once the user confirms', async () => {
    const asked: string[] = [];
    const client = await createMcpTestClient(app, {
      era,
      headers,
      // Plays the user: answers each question the tool asks (ctx.elicit()).
      onElicitation: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { confirm: true } };
      },
    });

    const result = await client.callTool({ name: 'clear_cache', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Cache cleared' }]);
    expect(asked).toEqual(['Clear every cached forecast?']);
    await client.close();
  });

  it('keeps the cache when the user declines', async () => {
    const client = await createMcpTestClient(app, { era, headers, onElicitation: () => ({ action: 'decline' }) });

    const result = await client.callTool({ name: 'clear_cache', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Cache kept' }]);
    await client.close();
  });
  // #endregion elicitation
});
