/**
 * A stdio server among the application's MCP servers: a process has one stdin and one stdout, so two
 * stdio servers fail the bootstrap, and fail it before either takes stdout (a refused application
 * leaves the process's stdout as it found it). Run once, in the Express project: nothing here is
 * served over HTTP.
 */
import { Injectable } from '@nestjs/common';
import { McpModule, McpTool } from '../../src/index.js';
import { definitionError } from '../utils/bootstrap-failure.js';

@Injectable()
class LocalItems {
  @McpTool({ name: 'notes', description: 'Lists the local notes' })
  notes(): string {
    return 'none';
  }

  @McpTool({ name: 'echo', description: 'Says it back' })
  echo(): string {
    return 'echo';
  }
}

describe('two stdio servers in one application', () => {
  it('fail bootstrap, naming both, and leave stdout as it was', async () => {
    const writeBefore = Object.getOwnPropertyDescriptor(process.stdout, 'write');
    const error = await definitionError({
      imports: [
        McpModule.forRoot({ name: 'notes', version: '1.0.0', transport: 'stdio', items: { tools: ['notes'] } }),
        McpModule.forRoot({ name: 'echo', version: '1.0.0', transport: 'stdio', items: { tools: ['echo'] } }),
      ],
      providers: [LocalItems],
    });

    expect(error.message).toMatch(
      /^MCP servers '(notes|echo)' \(stdio\) and '(notes|echo)' \(stdio\) both serve stdio: a process has one stdin and one stdout/,
    );
    expect(Object.getOwnPropertyDescriptor(process.stdout, 'write')).toEqual(writeBefore);
  });
});
