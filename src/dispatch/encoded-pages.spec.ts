import { encodeResponse, successResponse } from '../protocol/json-rpc.codec.js';
import { encodeWithKnownJson, joinJsonParts } from '../protocol/known-json.js';
import { EncodedPages } from './encoded-pages.js';

const definition = (name: string) => Object.freeze({ name, inputSchema: Object.freeze({ type: 'object' }) });
const [a, b, c] = ['a', 'b', 'c'].map(definition) as [object, object, object];

describe('EncodedPages', () => {
  it('serves the same definitions at the same place as one encoded page', () => {
    const pages = new EncodedPages<object>();
    const revision = {};
    const first = pages.page(revision, undefined, [a, b]);
    expect(first).toEqual([a, b]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(pages.page(revision, undefined, [a, b])).toBe(first);
    const response = successResponse(3, { tools: first, nextCursor: 'n' });
    expect(joinJsonParts(encodeWithKnownJson(response)!)).toBe(JSON.stringify(response));
  });

  it('keeps a page per visibility class and per start', () => {
    const pages = new EncodedPages<object>();
    const revision = {};
    const all = pages.page(revision, undefined, [a, b]);
    const hidden = pages.page(revision, undefined, [a, c]);
    const later = pages.page(revision, 'cursor', [a, b]);
    expect(hidden).not.toBe(all);
    expect(hidden).toEqual([a, c]);
    expect(later).not.toBe(all);
    expect(pages.page(revision, undefined, [a, b])).toBe(all);
    expect(pages.page(revision, undefined, [a, c])).toBe(hidden);
    expect(pages.page(revision, undefined, [a])).toEqual([a]);
    expect(pages.page(revision, undefined, [])).toEqual([]);
  });

  it('drops what it kept when the list changes', () => {
    const pages = new EncodedPages<object>();
    const before = pages.page({}, undefined, [a, b]);
    const after = pages.page({}, undefined, [a, b]);
    expect(after).not.toBe(before);
    expect(after).toEqual(before);
  });

  it('keeps a bounded number of classes per start, the latest ones', () => {
    const pages = new EncodedPages<object>();
    const revision = {};
    const classes = Array.from({ length: 12 }, (_, index) => [definition(`t${index}`)]);
    const kept = classes.map((items) => pages.page(revision, undefined, items));
    expect(pages.page(revision, undefined, classes[11]!)).toBe(kept[11]);
    expect(pages.page(revision, undefined, classes[0]!)).not.toBe(kept[0]);
  });

  it('serves definitions JSON cannot encode as they are, for the response to fail as before', () => {
    const pages = new EncodedPages<object>();
    const broken = [Object.freeze({ name: 'big', size: 1n })];
    const page = pages.page({}, undefined, broken);
    expect(page).toBe(broken);
    const failures: unknown[] = [];
    expect(JSON.parse(encodeResponse(successResponse(1, { tools: page }), (error) => failures.push(error)))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(failures).toHaveLength(1);
  });
});
