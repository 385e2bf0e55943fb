import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { ServerIdentity } from './server-identity.js';

/**
 * Refuses, at bootstrap, an application whose MCP servers cannot all work as configured: two with
 * one name, two on one path (the router would give every request to the first), or two that serve
 * every decorated item. The last is the dangerous one: a second `forRoot({ path: 'mcp2' })` without
 * guards would serve a guarded server's items to anyone; a server beside another names its `items`.
 * Each module runs the check; the first to find a conflict fails the bootstrap.
 */
@Injectable()
export class ServersCheck implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly own: ServerIdentity,
  ) {}

  onModuleInit(): void {
    const servers = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is ServerIdentity => instance instanceof ServerIdentity);
    if (servers.length < 2) return;
    const others = servers.filter((server) => server !== this.own);
    const sameName = others.find((server) => server.name === this.own.name);
    if (sameName) {
      throw new McpDefinitionError(
        `Two MCP servers of this application are named '${this.own.name}': give each McpModule.forRoot() its own name`,
      );
    }
    const samePath = others.find((server) => server.path !== undefined && server.path === this.own.path);
    if (samePath) {
      throw new McpDefinitionError(
        `MCP servers ${String(samePath)} and ${String(this.own)} both serve /${this.own.path}: the first would ` +
          'answer every request there. Give one of them another `path`.',
      );
    }
    const sameState = others.find(
      (server) => server.stateNamespace !== undefined && server.stateNamespace === this.own.stateNamespace,
    );
    if (sameState) {
      throw new McpDefinitionError(
        `MCP servers ${String(sameState)} and ${String(this.own)} share one state namespace ` +
          `('${this.own.stateNamespace}'): each would serve the other's sessions and hear its broadcasts. ` +
          "Give each server's redisState() its own keyPrefix.",
      );
    }
    const everything = servers.filter((server) => server.servesEverything);
    if (everything.length > 1) {
      throw new McpDefinitionError(
        `MCP servers ${everything.map(String).join(' and ')} both serve every decorated item of the application, ` +
          'each behind its own guards. A server beside another names what it serves: ' +
          "McpModule.forRoot({ ..., items: { tools: ['…'], resources: ['…'] } }).",
      );
    }
  }
}
