import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { randomUUID } from 'node:crypto';

/**
 * Never connected to: the provider reads the code from the authorization server's redirect itself,
 * as a native app's loopback listener would (port 9, discard, has no listener on a test machine).
 */
export const REDIRECT_URL = 'http://127.0.0.1:9/callback';

/**
 * The official SDK's client side of OAuth, kept in memory, with the user's browser played by a
 * `fetch` that does not follow the authorization server's redirect: it reads the `code` from the
 * `Location` and checks the `state` it sent, and an error the server redirects with is thrown.
 * `finishAuth(provider.code)` then lets the SDK redeem it.
 */
export class InMemoryOAuthClient implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT_URL;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'mcp42 e2e client',
    redirect_uris: [REDIRECT_URL],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  /** Every authorization URL the SDK sent the "user" to, in order. */
  readonly authorizationUrls: URL[] = [];
  /** The code of the last authorization, for `finishAuth`. */
  code: string | undefined;
  information: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  private verifier: string | undefined;
  private sentState: string | undefined;

  /** @param browse the user agent's fetch (a recording one, say). */
  constructor(private readonly browse: FetchLike = fetch) {}

  state(): string {
    this.sentState = randomUUID();
    return this.sentState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('No code verifier saved');
    return this.verifier;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    this.code = undefined;
    const response = await this.browse(authorizationUrl, { redirect: 'manual' });
    const body = await response.text();
    const location = response.headers.get('location');
    if (response.status !== 302 || location === null) {
      throw new Error(`The authorization endpoint answered ${response.status}: ${body}`);
    }
    const back = new URL(location);
    if (`${back.origin}${back.pathname}` !== REDIRECT_URL) throw new Error(`Redirected elsewhere: ${location}`);
    if (back.searchParams.get('state') !== this.sentState) throw new Error(`The state came back altered: ${location}`);
    const error = back.searchParams.get('error');
    if (error !== null)
      throw new Error(`Authorization refused: ${error} (${back.searchParams.get('error_description')})`);
    this.code = back.searchParams.get('code') ?? undefined;
  }
}
