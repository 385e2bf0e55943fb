import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { AdminGuard } from './admin.guard.js';
import { PublicModule } from './public.module.js';
import { WeatherTools } from './weather.tools.js';

// #region app
@Module({
  imports: [
    // The main server: every decorated item, behind its guard.
    McpModule.forRoot({ name: 'weather', version: '1.0.0', guards: [AdminGuard] }),
    // The public server, in its own module.
    PublicModule,
  ],
  providers: [WeatherTools],
})
export class AppModule {}
// #endregion app
