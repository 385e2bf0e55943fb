/**
 * The sample app as an OAuth 2.1 resource server (`MCP_OAUTH_ISSUER` / `MCP_OAUTH_AUDIENCE`): JWTs of
 * a real issuer on loopback instead of the static bearer tokens; `clear_forecast_cache` is listed for
 * everyone (`scopeDenial: 'challenge'`) and callable only with the `weather:admin` scope, a call
 * without it challenged (403 `insufficient_scope`); a token for another audience is refused with the
 * challenge that points at the resource metadata.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { OAuthIssuer } from '../../utils/oauth-issuer.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';

const AUDIENCE = 'https://weather.example.com/mcp';

describe('the sample app with MCP_OAUTH_ISSUER (e2e)', () => {
  let issuer: OAuthIssuer;
  let running: RunningApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await OAuthIssuer.start();
    running = await startApp(AppModule.register({ oauthIssuer: issuer.issuer, oauthAudience: AUDIENCE }));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await running?.close();
    await issuer?.close();
  });

  /**
   * The `WWW-Authenticate` of each refusal (401, 403) the clients got, in order. Only refusals: the
   * client's own GET stream, opened in the background after the handshake, may answer at any time.
   */
  const challenges: (string | null)[] = [];
  const connect = async (scope: string): Promise<Client> => {
    const token = await issuer.sign(issuer.claims(AUDIENCE, { scope }));
    const client = new Client({ name: 'oauth-sample', version: '1.0.0' });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(running.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (response.status === 401 || response.status === 403)
          challenges.push(response.headers.get('www-authenticate'));
        return response;
      },
    });
    await client.connect(transport);
    return client;
  };

  it('lists clear_forecast_cache for everyone, and challenges a call without weather:admin', async () => {
    const reader = await connect('weather:read');
    const names = async (client: Client): Promise<string[]> =>
      (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names(reader)).toContain('clear_forecast_cache');
    challenges.length = 0;
    // No authProvider: this client cannot step up, and reports the 403.
    await expect(reader.callTool({ name: 'clear_forecast_cache', arguments: {} })).rejects.toMatchObject({ code: 403 });
    expect(challenges).toEqual([
      'Bearer error="insufficient_scope", error_description="Missing scope(s): weather:admin", ' +
        'scope="weather:admin weather:read", ' +
        'resource_metadata="https://weather.example.com/.well-known/oauth-protected-resource/mcp"',
    ]);
    expect(await reader.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('refuses a token for another audience, pointing at the resource metadata', async () => {
    const token = await issuer.sign(issuer.claims('https://elsewhere.example.com/mcp', { scope: 'weather:read' }));
    const answer = await fetch(running.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${token}` },
      body: JSON.stringify(initializeRequest()),
    });
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(
      'resource_metadata="https://weather.example.com/.well-known/oauth-protected-resource/mcp"',
    );
  });
});
