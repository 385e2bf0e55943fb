import { ConfigurableModuleBuilder } from '@nestjs/common';
import { DEFAULT_MCP_PATH, MCP_ENDPOINT_CONTROLLER } from './mcp.constants.js';
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
  .setExtras<McpModuleExtras>({ path: DEFAULT_MCP_PATH, guards: [], isGlobal: false }, (definition, extras) => {
    const controller = createMcpController(extras.path ?? DEFAULT_MCP_PATH, extras.guards ?? []);
    return {
      ...definition,
      global: extras.isGlobal ?? false,
      controllers: [controller],
      providers: [...(definition.providers ?? []), { provide: MCP_ENDPOINT_CONTROLLER, useValue: controller }],
    };
  })
  .build();
