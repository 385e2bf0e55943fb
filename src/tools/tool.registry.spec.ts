import 'reflect-metadata';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import { NO_ARGUMENTS_SCHEMA } from './dto-json-schema.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { McpToolRegistry } from './tool.registry.js';

function tool(name: string, owner: string): RegisteredTool {
  return {
    definition: { name, description: `${name} tool`, inputSchema: NO_ARGUMENTS_SCHEMA },
    input: undefined,
    handler: () => name,
    owner,
  };
}

describe('McpToolRegistry', () => {
  it('registers tools and finds them by name', () => {
    const registry = new McpToolRegistry();
    const echo = tool('echo', 'EchoTools.echo');
    registry.register(echo);
    registry.register(tool('weather', 'WeatherTools.weather'));
    expect(registry.size).toBe(2);
    expect(registry.get('echo')).toBe(echo);
    expect(registry.get('missing')).toBeUndefined();
  });

  it('refuses a duplicate name with a message naming both owners, and keeps the first', () => {
    const registry = new McpToolRegistry();
    const first = tool('echo', 'EchoTools.echo');
    registry.register(first);
    let error: unknown;
    try {
      registry.register(tool('echo', 'OtherTools.say'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpToolDefinitionError);
    const message = (error as Error).message;
    expect(message).toContain('"echo"');
    expect(message).toContain('EchoTools.echo');
    expect(message).toContain('OtherTools.say');
    expect(registry.get('echo')).toBe(first);
    expect(registry.size).toBe(1);
  });

  it('treats names as case-sensitive', () => {
    const registry = new McpToolRegistry();
    registry.register(tool('echo', 'A.echo'));
    expect(() => registry.register(tool('Echo', 'B.Echo'))).not.toThrow();
    expect(registry.size).toBe(2);
  });

  it('lists the definitions in registration order', () => {
    const registry = new McpToolRegistry();
    expect(registry.list()).toEqual({ tools: [] });
    registry.register(tool('b', 'T.b'));
    registry.register(tool('a', 'T.a'));
    expect(registry.list().tools.map((definition) => definition.name)).toEqual(['b', 'a']);
    expect(registry.list().tools[0]).toBe(registry.get('b')!.definition);
  });

  it('builds the list once and returns the same frozen result until a tool is registered', () => {
    const registry = new McpToolRegistry();
    registry.register(tool('echo', 'T.echo'));
    const first = registry.list();
    expect(registry.list()).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.tools)).toBe(true);

    registry.register(tool('weather', 'T.weather'));
    const second = registry.list();
    expect(second).not.toBe(first);
    expect(second.tools.map((definition) => definition.name)).toEqual(['echo', 'weather']);
    expect(first.tools.map((definition) => definition.name)).toEqual(['echo']);
    expect(registry.list()).toBe(second);
  });

  it('does not rebuild the list after a refused duplicate', () => {
    const registry = new McpToolRegistry();
    registry.register(tool('echo', 'T.echo'));
    const first = registry.list();
    expect(() => registry.register(tool('echo', 'U.echo'))).toThrow(McpToolDefinitionError);
    expect(registry.list()).toBe(first);
  });

  it('keeps the tools of two registries apart', () => {
    const one = new McpToolRegistry();
    const two = new McpToolRegistry();
    one.register(tool('echo', 'A.echo'));
    expect(two.get('echo')).toBeUndefined();
    expect(() => two.register(tool('echo', 'B.echo'))).not.toThrow();
  });
});
