// #region client
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

// The client spawns the server, as Claude Desktop or an IDE does, and talks to it over its stdin and stdout.
const transport = new StdioClientTransport({ command: 'node', args: ['dist/main.js', '--stdio'], stderr: 'inherit' });
const client = new Client(
  { name: 'notes-script', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
);
// delete_notes asks the user first: this script says yes.
client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirm: true } }));
await client.connect(transport);
console.log(client.getProtocolEra()); // 'modern': server/discover answered, stateless requests follow

console.log(await client.callTool({ name: 'list_notes', arguments: {} }));
console.log(await client.callTool({ name: 'delete_notes', arguments: {} }));
// Closing ends the server's stdin: it shuts down and exits with code 0.
await client.close();
// #endregion client
