import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppModule } from '../../sample-app/app.module.js';
import { startApp } from '../utils/start-app.js';

test('explore', async () => {
  const running = await startApp(AppModule.register());
  const client = new Client({ name: 't', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(running.mcpUrl));
  await client.connect(transport);
  console.log(JSON.stringify({ v: client.getServerVersion(), c: client.getServerCapabilities(), i: client.getInstructions(), p: transport.protocolVersion }));
  console.log(JSON.stringify((await client.listTools()), null, 1));
  console.log(JSON.stringify(await client.callTool({ name: 'weather_forecast', arguments: { city: '', days: 9, units: 'kelvin', x: 1 } })));
  console.log(JSON.stringify(await client.callTool({ name: 'weather_forecast', arguments: { city: 5, days: 2.5 } })));
  console.log(JSON.stringify(await client.callTool({ name: 'echo', arguments: { text: '' } })));
  console.log(JSON.stringify(await client.callTool({ name: 'echo', arguments: { } })));
  await client.close();
  await running.close();
});
