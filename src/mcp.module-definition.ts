import { ConfigurableModuleBuilder } from '@nestjs/common';
import { MCP_ENDPOINT_CONTROLLER } from './mcp.constants.js';
import { MCP_EXTRAS_DEFAULTS } from './mcp-options.defaults.js';
import type { McpModuleExtras, McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { createMcpController } from './http/mcp.controller.js';
import { STDIO_PROVIDERS } from './stdio/stdio.providers.js';

/** `forRoot` and `forRootAsync` come from one definition, so they cannot drift apart. */
const definition = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setExtras<McpModuleExtras>({ ...MCP_EXTRAS_DEFAULTS }, (module, extras) => {
    const global = extras.isGlobal ?? MCP_EXTRAS_DEFAULTS.isGlobal;
    if ((extras.transport ?? MCP_EXTRAS_DEFAULTS.transport) === 'stdio') {
      // No endpoint: the stdio server reads stdin in its place (the HTTP-only providers find none).
      return {
        ...module,
        global,
        providers: [
          ...(module.providers ?? []),
          { provide: MCP_ENDPOINT_CONTROLLER, useValue: null },
          ...STDIO_PROVIDERS,
        ],
      };
    }
    const controller = createMcpController(
      extras.path ?? MCP_EXTRAS_DEFAULTS.path,
      extras.guards ?? MCP_EXTRAS_DEFAULTS.guards,
    );
    return {
      ...module,
      global,
      controllers: [controller],
      providers: [...(module.providers ?? []), { provide: MCP_ENDPOINT_CONTROLLER, useValue: controller }],
    };
  })
  .build();

/** The base class `McpModule` extends: it provides `forRoot` and `forRootAsync`. */
export const McpConfigurableModule = definition.ConfigurableModuleClass;

/**
 * Injection token of the options as given to `forRoot` / `forRootAsync`, before defaults are applied.
 * @category Module
 */
export const MCP_MODULE_OPTIONS = definition.MODULE_OPTIONS_TOKEN;

/** The type of `forRoot`'s argument (use with `typeof`). */
export const MCP_OPTIONS_TYPE = definition.OPTIONS_TYPE;

/** The type of `forRootAsync`'s argument (use with `typeof`). */
export const MCP_ASYNC_OPTIONS_TYPE = definition.ASYNC_OPTIONS_TYPE;
