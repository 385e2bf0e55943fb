import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { McpOAuthGuard, McpOAuthModule } from 'mcp42/oauth';
import { PaymentTools } from './payment.tools.js';

// #region module
@Module({
  imports: [
    McpOAuthModule.forRoot({ resource: 'https://pay.example.com/mcp', issuers: ['https://auth.example.com'] }),
    McpModule.forRoot({
      name: 'payments',
      version: '1.0.0',
      guards: [McpOAuthGuard],
      // List items whose scopes the token lacks, and challenge a call to them (step-up).
      auth: { scopeDenial: 'challenge' },
    }),
  ],
  providers: [PaymentTools],
})
export class AppModule {}
// #endregion module
