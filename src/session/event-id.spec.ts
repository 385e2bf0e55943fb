import {
  formatEventId,
  parseEventId,
  postStreamId,
  postStreamNumber,
  STANDALONE_STREAM_ID,
  streamProducer,
} from './event-id.js';

describe('event ids', () => {
  it('names the standalone stream g and POST streams p<n>', () => {
    expect(STANDALONE_STREAM_ID).toBe('g');
    expect(postStreamId(1)).toBe('p1');
    expect(postStreamId(42)).toBe('p42');
  });

  it('formats <stream>-<seq>', () => {
    expect(formatEventId('g', 12)).toBe('g-12');
    expect(formatEventId('p3', 7)).toBe('p3-7');
    expect(formatEventId('g', 0)).toBe('g-0');
  });

  it.each([
    ['g-12', 'g', 12],
    ['g-0', 'g', 0],
    ['p3-7', 'p3', 7],
    ['p10-1', 'p10', 1],
    ['p1-9007199254740991', 'p1', Number.MAX_SAFE_INTEGER],
  ])('reads %p back', (id, streamId, seq) => {
    expect(parseEventId(id)).toEqual({ streamId, seq });
  });

  it('reads back what it formats', () => {
    for (const [stream, seq] of [
      ['g', 1],
      ['p1', 2],
      ['p999', 123456],
    ] as const) {
      expect(parseEventId(formatEventId(stream, seq))).toEqual({ streamId: stream, seq });
    }
  });

  it.each([
    '',
    'g',
    'g-',
    '-1',
    'g--1',
    'g-01',
    'g-1.5',
    'g-1e3',
    'G-1',
    'x-1',
    'p-1',
    'p0-1',
    'p01-1',
    'p1',
    'p1-',
    ' g-1',
    'g-1 ',
    'g-1\n',
    'g-1-2',
    'g-9007199254740993',
    'g-12345678901234567',
    'p12345678901234567-1',
  ])('refuses %p', (id) => {
    expect(parseEventId(id)).toBeUndefined();
  });
});

describe('event ids of a stream tagged with its producing instance', () => {
  it('formats and reads p<n>.<replica>-<seq>, and tells the producer and the number', () => {
    const streamId = postStreamId(7, 'k3j9x0q2m1ab');
    expect(streamId).toBe('p7.k3j9x0q2m1ab');
    expect(parseEventId(formatEventId(streamId, 1733100000000123))).toEqual({ streamId, seq: 1733100000000123 });
    expect(streamProducer(streamId)).toBe('k3j9x0q2m1ab');
    expect(streamProducer('p7')).toBeUndefined();
    expect(postStreamNumber(streamId)).toBe(7);
    expect(postStreamNumber('p12')).toBe(12);
  });

  it.each([
    'p7.-1',
    'p7.K3J9X0Q2M1AB-1',
    'p7.k3j9x0q2m1a-1',
    'p7.k3j9x0q2m1abc-1',
    'g.k3j9x0q2m1ab-1',
    'p0.k3j9x0q2m1ab-1',
  ])('refuses %p', (id) => expect(parseEventId(id)).toBeUndefined());
});
