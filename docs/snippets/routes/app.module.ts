import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { BooksController } from './books.controller.js';
import { WeatherController } from './weather.controller.js';

// #region app
@Module({
  imports: [
    McpModule.forRoot({
      name: 'weather',
      version: '1.0.0',
      // What the in-process request carries from the MCP request (these are the defaults but one).
      routes: { forwardHeaders: ['authorization', 'x-tenant'], maxResponseBytes: 4 * 1024 * 1024 },
    }),
  ],
  controllers: [WeatherController, BooksController],
})
export class AppModule {}
// #endregion app
