import { canonicalResource, metadataPathOf, parseServerUrl } from './canonical-uri.js';

describe('canonicalResource', () => {
  it('compares spellings of one server equal: case of scheme and host, default port, trailing slash, fragment', () => {
    const canonical = canonicalResource('https://mcp.example.com/mcp');
    for (const spelling of [
      'HTTPS://MCP.EXAMPLE.COM/mcp',
      'https://mcp.example.com:443/mcp',
      'https://mcp.example.com/mcp/',
      'https://mcp.example.com/mcp#x',
    ]) {
      expect(canonicalResource(spelling)).toBe(canonical);
    }
  });

  it('keeps apart what names another resource: path (and its case), port, host, scheme', () => {
    const canonical = canonicalResource('https://mcp.example.com/mcp');
    for (const other of [
      'https://mcp.example.com/MCP',
      'https://mcp.example.com/mcp/x',
      'https://mcp.example.com:8443/mcp',
      'https://evil.example.com/mcp',
      'http://mcp.example.com/mcp',
    ]) {
      expect(canonicalResource(other)).not.toBe(canonical);
    }
  });

  it('has no canonical form for what is not an absolute URL', () => {
    expect(canonicalResource('mcp.example.com')).toBeUndefined();
  });
});

describe('parseServerUrl', () => {
  it('takes https anywhere, http on loopback only', () => {
    expect(parseServerUrl('https://auth.example.com', 'x').href).toBe('https://auth.example.com/');
    expect(parseServerUrl('http://127.0.0.1:8080', 'x').port).toBe('8080');
    expect(parseServerUrl('http://localhost', 'x').hostname).toBe('localhost');
    expect(() => parseServerUrl('http://auth.example.com', 'issuer')).toThrow(/issuer must be https/);
  });

  it('refuses relative URLs, credentials and fragments', () => {
    expect(() => parseServerUrl('/mcp', 'resource')).toThrow(/not an absolute URL/);
    expect(() => parseServerUrl('https://u:p@auth.example.com', 'x')).toThrow(/credentials/);
    expect(() => parseServerUrl('https://auth.example.com#f', 'x')).toThrow(/fragment/);
  });
});

describe('metadataPathOf', () => {
  it('inserts the well-known segment before the resource path (RFC 9728 §3.1)', () => {
    expect(metadataPathOf(new URL('https://mcp.example.com/public/mcp'))).toBe(
      '/.well-known/oauth-protected-resource/public/mcp',
    );
    expect(metadataPathOf(new URL('https://mcp.example.com/mcp/'))).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(metadataPathOf(new URL('https://mcp.example.com'))).toBe('/.well-known/oauth-protected-resource');
  });
});
