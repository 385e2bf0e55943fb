// #region client
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

// 'auto' asks the server first (server/discover): mcp42 answers, so the client speaks the
// stateless 2026-07-28 revision, with no session. Without it, the v2 client sends initialize.
const client = new Client({ name: 'weather-script', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp'), {
  requestInit: { headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` } },
});
await client.connect(transport);
console.log(client.getProtocolEra()); // 'modern'

const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } });
console.log(result.content);

await client.close();
// #endregion client
