import { Module } from '@nestjs/common';
import { BEARER_GRANTS, type BearerGrant } from './bearer-auth.guard.js';

/** Where the grants come from: the environment here, a secret store or a database elsewhere. */
@Module({
  providers: [
    {
      provide: BEARER_GRANTS,
      useFactory: (): BearerGrant[] => [
        { token: process.env.MCP_TOKEN ?? '', sub: 'reporting-agent', scopes: ['reports:read'] },
        { token: process.env.MCP_ADMIN_TOKEN ?? '', sub: 'admin', scopes: ['reports:read', 'reports:admin'] },
      ],
    },
  ],
  exports: [BEARER_GRANTS],
})
export class AuthModule {}
