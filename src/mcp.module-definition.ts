import { ConfigurableModuleBuilder } from '@nestjs/common';
import { MCP_ENDPOINT_CONTROLLER } from './mcp.constants.js';
import { MCP_EXTRAS_DEFAULTS } from './mcp-options.defaults.js';
import type { McpModuleExtras, McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { createMcpController } from './http/mcp.controller.js';

/** `forRoot` and `forRootAsync` come from one definition, so they cannot drift apart. */
const definition = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setExtras<McpModuleExtras>({ ...MCP_EXTRAS_DEFAULTS }, (module, extras) => {
    const controller = createMcpController(
      extras.path ?? MCP_EXTRAS_DEFAULTS.path,
      extras.guards ?? MCP_EXTRAS_DEFAULTS.guards,
    );
    return {
      ...module,
      global: extras.isGlobal ?? MCP_EXTRAS_DEFAULTS.isGlobal,
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
