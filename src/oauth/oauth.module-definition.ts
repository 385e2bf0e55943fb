import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpOAuthModuleExtras, McpOAuthOptions } from './oauth-options.interface.js';

/** `forRoot` and `forRootAsync` from one definition; global unless told otherwise (see {@link McpOAuthModuleExtras}). */
const definition = new ConfigurableModuleBuilder<McpOAuthOptions>({ moduleName: 'McpOAuth' })
  .setClassMethodName('forRoot')
  .setExtras<McpOAuthModuleExtras>({ isGlobal: true }, (module, extras) => ({
    ...module,
    global: extras.isGlobal ?? true,
  }))
  .build();

/** The base class `McpOAuthModule` extends. */
export const McpOAuthConfigurableModule = definition.ConfigurableModuleClass;

/**
 * Injection token of the options as given to `forRoot` / `forRootAsync`.
 * @category OAuth
 */
export const MCP_OAUTH_MODULE_OPTIONS = definition.MODULE_OPTIONS_TOKEN;

/** The type of `forRoot`'s argument (use with `typeof`). */
export const MCP_OAUTH_OPTIONS_TYPE = definition.OPTIONS_TYPE;

/** The type of `forRootAsync`'s argument (use with `typeof`). */
export const MCP_OAUTH_ASYNC_OPTIONS_TYPE = definition.ASYNC_OPTIONS_TYPE;
