// #region client
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const client = new Client({ name: 'weather-script', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'), {
  // Sent with every request: POST, the GET stream and the DELETE that ends the session.
  requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` } },
});
await client.connect(transport); // initialize: a 2025-11-25 session

const { tools } = await client.listTools();
console.log(tools.map((tool) => tool.name));
const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } });
console.log(result.content);

await transport.terminateSession(); // DELETE: the server forgets the session now, not when it idles out
await client.close();
// #endregion client
