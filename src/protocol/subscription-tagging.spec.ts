import { subscriptionTagger } from './subscription-tagging.js';

describe('subscriptionTagger', () => {
  it('gives each stream the text the whole message would encode to, for string and number ids', () => {
    const params = { uri: 'file:///a "quoted" \\ path', extra: [1, { deep: true }] };
    const tag = subscriptionTagger('notifications/resources/updated', params);
    for (const id of ['s-1', 7, 'with "quotes" and \u2028', -0.5]) {
      const expected = JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { ...params, _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
      });
      expect(tag(id)).toBe(expected);
      expect(JSON.parse(tag(id))).toEqual(JSON.parse(expected));
    }
  });

  it('stays valid JSON when params carry a _meta before a member that ends in null', () => {
    const tag = subscriptionTagger('notifications/x', { _meta: {}, x: { y: null } });
    expect(JSON.parse(tag('s'))).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/x',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 's' }, x: { y: null } },
    });
  });

  it('replaces a _meta the params carry, as tagging a copy would', () => {
    const tag = subscriptionTagger('notifications/tools/list_changed', { _meta: { other: 1 } });
    expect(JSON.parse(tag('x'))).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'x' } },
    });
  });
});
