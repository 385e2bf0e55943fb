import { ConfigurableModuleBuilder } from '@nestjs/common';
import { DEFAULT_MCP_PATH } from './mcp.constants.js';
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
  .setExtras<McpModuleExtras>({ path: DEFAULT_MCP_PATH, guards: [], isGlobal: false }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal ?? false,
    controllers: [createMcpController(extras.path ?? DEFAULT_MCP_PATH, extras.guards ?? [])],
  }))
  .build();
