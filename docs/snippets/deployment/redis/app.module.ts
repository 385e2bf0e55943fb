import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { redisState } from 'mcp42/redis';
import { REDIS_CLIENT, type RedisClient } from './redis-client.js';
import { WeatherTools } from './weather.tools.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

// #region module
@Module({
  imports: [
    McpModule.forRootAsync({
      // REDIS_CLIENT comes from your Redis module (global here; else list it in `imports`).
      inject: [REDIS_CLIENT],
      useFactory: (client: RedisClient) => ({
        name: 'weather',
        version: '1.0.0',
        http: { allowedHosts: ['mcp.example.com'] },
        state: {
          // One prefix per deployment and endpoint: keys and pub/sub channels of several apps on one
          // Redis stay apart (pub/sub ignores the database number).
          shared: redisState({ client, keyPrefix: 'weather-mcp:' }),
          // Required with `shared`: bootstrap fails without it. The same on every instance.
          secret: required('MCP_STATE_SECRET'),
        },
      }),
    }),
  ],
  providers: [WeatherTools],
})
export class AppModule {}
// #endregion module
