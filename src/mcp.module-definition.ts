import { ConfigurableModuleBuilder } from '@nestjs/common';
import { MCP_ENDPOINT_CONTROLLER } from './mcp.constants.js';
import { MCP_EXTRAS_DEFAULTS } from './mcp-options.defaults.js';
import type { McpModuleExtras, McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { createMcpController } from './transport/mcp.controller.js';

/** `forRoot` and `forRootAsync` come from one definition, so they cannot drift apart. */
export const {
  ConfigurableModuleClass: McpConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setExtras<McpModuleExtras>({ ...MCP_EXTRAS_DEFAULTS }, (definition, extras) => {
    const controller = createMcpController(
      extras.path ?? MCP_EXTRAS_DEFAULTS.path,
      extras.guards ?? MCP_EXTRAS_DEFAULTS.guards,
    );
    return {
      ...definition,
      global: extras.isGlobal ?? MCP_EXTRAS_DEFAULTS.isGlobal,
      controllers: [controller],
      providers: [...(definition.providers ?? []), { provide: MCP_ENDPOINT_CONTROLLER, useValue: controller }],
    };
  })
  .build();
