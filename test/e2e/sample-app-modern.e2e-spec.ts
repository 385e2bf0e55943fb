import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppModule } from '../../sample-app/app.module.js';
import { WeatherService } from '../../sample-app/weather.service.js';
import { McpToolRegistry } from '../../src/index.js';
import { startApp } from '../utils/start-app.js';

const show = (label: string, v: unknown) => console.log(label, JSON.stringify(v)?.slice(0, 600));
const err = (e: any) => ({ name: e?.constructor?.name, code: e?.code, message: e?.message, data: e?.data });

it('explore', async () => {
  const running = await startApp(AppModule.register({ bearerToken: 'r', adminToken: 'a' }));
  const weather = running.app.get(WeatherService);
  const client = new Client({ name: 'x', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } });
  const asked: unknown[] = [];
  client.setRequestHandler('elicitation/create', async (req, ctx) => { asked.push({ params: req.params, id: ctx.mcpReq.id }); return { action: 'accept', content: { confirm: true } }; });
  const updates: unknown[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => { updates.push(n.params); });
  client.setNotificationHandler('notifications/tools/list_changed', (n) => { updates.push(['tools', n.params]); });
  const transport = new StreamableHTTPClientTransport(new URL(running.mcpUrl), { requestInit: { headers: { Authorization: 'Bearer a' } } });
  await client.connect(transport);
  show('sessionId', transport.sessionId);
  show('bad', await client.callTool({ name: 'weather_forecast', arguments: { city: 42 } }));
  try { await client.readResource({ uri: 'weather://forecast/Atlantis' }); } catch (e) { show('read miss', err(e)); }
  show('read', await client.readResource({ uri: 'weather://forecast/Oslo' }));
  show('prompt', await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Lisbon' } }));
  show('complete', await client.complete({ ref: { type: 'ref/prompt', name: 'forecast_summary' }, argument: { name: 'city', value: 'os' } }));
  await weather.refresh('Oslo', 0, new AbortController().signal);
  show('clear', await client.callTool({ name: 'clear_forecast_cache', arguments: {} }));
  show('asked', asked);
  const sub = await client.listen({ resourceSubscriptions: ['weather://forecast/Lisbon'], toolsListChanged: true });
  show('honored', sub.honoredFilter);
  const progress: unknown[] = [];
  show('refresh', await client.callTool({ name: 'refresh_forecasts', arguments: {} }, { onprogress: (p) => progress.push(p) }));
  show('progress', progress);
  running.app.get(McpToolRegistry).disable('echo');
  await new Promise((r) => setTimeout(r, 300));
  show('updates', updates);
  await sub.close();
  show('closed', await sub.closed);
  const ac = new AbortController();
  try { await client.callTool({ name: 'refresh_forecasts', arguments: {} }, { signal: ac.signal, onprogress: (p) => { if (p.progress === 2) ac.abort('stop'); } }); } catch (e) { show('abort', err(e)); }
  await client.close();
  await running.close();
}, 30000);
