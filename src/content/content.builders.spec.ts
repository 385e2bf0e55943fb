import { Buffer } from 'node:buffer';
import { ContentBlockSchema } from '@modelcontextprotocol/sdk/types.js';
import type {
  AudioContent,
  ContentAnnotations,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
} from '../protocol/mcp.types.js';
import { toCallToolResult } from '../tools/tool-result.mapper.js';
import { audio, embeddedBlob, embeddedText, image, resourceLink, text } from './content.builders.js';
import * as barrel from './index.js';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
const PNG_BASE64 = PNG_BYTES.toString('base64');

/** Every block must pass the reference SDK's client-side schema and our own result mapper unchanged. */
function expectAcceptedByClients(block: ContentBlock): void {
  expect(ContentBlockSchema.safeParse(block).success).toBe(true);
  expect(toCallToolResult([block])).toEqual({ content: [block] });
  // No undefined-valued keys: what is sent is what was built.
  expect(JSON.parse(JSON.stringify(block))).toStrictEqual(block);
}

const VALID_TIMESTAMPS = [
  '2025-01-12T15:00:58Z',
  '2025-01-12T15:00:58.123Z',
  '2025-01-12T15:00:58.123456789Z',
  '2025-01-12T15:00Z',
  '2025-01-12T15:00:58+02:00',
  '2025-01-12T15:00:58-05:30',
  '2025-01-12T00:00:00+00:00',
  '2024-02-29T23:59:59Z',
  '2000-02-29T12:00:00Z',
  '1999-12-31T23:59:59.999Z',
];

const INVALID_TIMESTAMPS = [
  '',
  '2025-01-12',
  '2025-01-12T15:00:58',
  '2025-01-12 15:00:58Z',
  '2025-01-12t15:00:58z',
  '2025-01-12T15:00:58+0200',
  '2025-01-12T15Z',
  '2025-01-12T24:00:00Z',
  '2025-01-12T15:60:00Z',
  '2025-01-12T15:00:60Z',
  '2025-13-01T00:00:00Z',
  '2025-00-10T00:00:00Z',
  '2025-01-00T00:00:00Z',
  '2025-01-32T00:00:00Z',
  '2025-04-31T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  'March 7, 2024',
  'Sun, 12 Jan 2025 15:00:58 GMT',
  '1736694058000',
  ' 2025-01-12T15:00:58Z',
  '2025-01-12T15:00:58Z\n',
];

describe('text', () => {
  it('builds a bare text block', () => {
    const block = text('Sunny, 24 °C');
    expect(block).toStrictEqual({ type: 'text', text: 'Sunny, 24 °C' });
    expectAcceptedByClients(block);
  });

  it('keeps the empty string', () => {
    expect(text('')).toStrictEqual({ type: 'text', text: '' });
  });

  it('carries annotations', () => {
    const annotations: ContentAnnotations = {
      audience: ['user', 'assistant'],
      priority: 0.25,
      lastModified: '2025-01-12T15:00:58Z',
    };
    const block = text('hi', annotations);
    expect(block).toStrictEqual({ type: 'text', text: 'hi', annotations });
    expectAcceptedByClients(block);
  });

  it.each([
    ['undefined', undefined],
    ['empty', {}],
    ['all undefined', { audience: undefined, priority: undefined, lastModified: undefined }],
  ])('leaves out %s annotations', (_label, annotations) => {
    expect(text('hi', annotations)).toStrictEqual({ type: 'text', text: 'hi' });
  });

  it('leaves out annotations that are undefined, keeping the others', () => {
    expect(text('hi', { priority: 1, audience: undefined })).toStrictEqual({
      type: 'text',
      text: 'hi',
      annotations: { priority: 1 },
    });
  });

  it('copies annotations, so later changes to the caller’s objects do not reach the block', () => {
    const audience: ('user' | 'assistant')[] = ['user'];
    const annotations = { audience, priority: 0.5 };
    const block = text('hi', annotations);
    audience.push('assistant');
    annotations.priority = 0.9;
    expect(block.annotations).toStrictEqual({ audience: ['user'], priority: 0.5 });
  });

  it('drops annotation members clients do not know', () => {
    const annotations = { priority: 0.5, colour: 'red' } as ContentAnnotations;
    expect(text('hi', annotations).annotations).toStrictEqual({ priority: 0.5 });
  });

  it.each([undefined, null, 42, ['a'], { text: 'a' }])('rejects the non-string text %p', (value) => {
    expect(() => text(value as unknown as string)).toThrow(TypeError);
  });
});

describe('annotations', () => {
  it.each([0, 1, 0.5, 1e-9])('accepts priority %p', (priority) => {
    const block = text('hi', { priority });
    expect(block.annotations).toStrictEqual({ priority });
    expectAcceptedByClients(block);
  });

  it.each([-0.01, 1.01, -1, 2, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'rejects priority %p with a RangeError',
    (priority) => {
      expect(() => text('hi', { priority })).toThrow(RangeError);
      expect(() => text('hi', { priority })).toThrow(/priority must be between 0 and 1/);
    },
  );

  it.each(['0.5', null, true])('rejects the non-number priority %p with a TypeError', (priority) => {
    expect(() => text('hi', { priority: priority as unknown as number })).toThrow(TypeError);
  });

  it.each(VALID_TIMESTAMPS)('accepts lastModified %p', (lastModified) => {
    const block = text('hi', { lastModified });
    expect(block.annotations).toStrictEqual({ lastModified });
    expectAcceptedByClients(block);
  });

  it.each(INVALID_TIMESTAMPS)('rejects lastModified %p with a RangeError', (lastModified) => {
    expect(() => text('hi', { lastModified })).toThrow(RangeError);
    expect(() => text('hi', { lastModified })).toThrow(/lastModified must be an ISO 8601 date-time/);
  });

  it.each(INVALID_TIMESTAMPS)('rejects lastModified %p as the reference SDK’s clients do', (lastModified) => {
    const block = { type: 'text', text: 'hi', annotations: { lastModified } };
    expect(ContentBlockSchema.safeParse(block).success).toBe(false);
  });

  it.each([42, null, new Date('2025-01-12T15:00:58Z')])('rejects the non-string lastModified %p', (lastModified) => {
    expect(() => text('hi', { lastModified: lastModified as unknown as string })).toThrow(RangeError);
  });

  it.each([[[]], [['user']], [['assistant']], [['assistant', 'user']]])('accepts audience %p', (audience) => {
    const block = text('hi', { audience: audience as ('user' | 'assistant')[] });
    expect(block.annotations).toStrictEqual({ audience });
    expectAcceptedByClients(block);
  });

  it.each([[['system']], [['user', 'User']], [[null]], [['']]])('rejects audience %p with a RangeError', (audience) => {
    expect(() => text('hi', { audience: audience as unknown as ('user' | 'assistant')[] })).toThrow(RangeError);
  });

  it.each(['user', { 0: 'user' }, 1])('rejects the non-array audience %p with a TypeError', (audience) => {
    expect(() => text('hi', { audience: audience as unknown as 'user'[] })).toThrow(TypeError);
  });

  it.each([null, 'priority', 1, [0.5]])('rejects annotations %p that are not an object', (annotations) => {
    expect(() => text('hi', annotations as unknown as ContentAnnotations)).toThrow(TypeError);
  });

  it('applies to every helper', () => {
    const bad = { priority: 7 };
    expect(() => image(PNG_BYTES, 'image/png', bad)).toThrow(RangeError);
    expect(() => audio(PNG_BYTES, 'audio/wav', bad)).toThrow(RangeError);
    expect(() => resourceLink({ uri: 'file:///a', name: 'a', annotations: bad })).toThrow(RangeError);
    expect(() => embeddedText('file:///a', 'a', { annotations: bad })).toThrow(RangeError);
    expect(() => embeddedBlob('file:///a', PNG_BYTES, { annotations: bad })).toThrow(RangeError);
  });
});

describe.each([
  ['image', image, 'image/png'],
  ['audio', audio, 'audio/wav'],
] as const)('%s', (type, build, mimeType) => {
  it('encodes a Buffer as base64', () => {
    const block = build(PNG_BYTES, mimeType);
    expect(block).toStrictEqual({ type, data: PNG_BASE64, mimeType });
    expectAcceptedByClients(block);
  });

  it('encodes a plain Uint8Array as base64', () => {
    expect(build(new Uint8Array(PNG_BYTES), mimeType).data).toBe(PNG_BASE64);
  });

  it('encodes only the bytes a view covers', () => {
    const backing = new Uint8Array([1, 2, 3, ...PNG_BYTES, 4, 5]);
    expect(build(backing.subarray(3, 3 + PNG_BYTES.length), mimeType).data).toBe(PNG_BASE64);
    expect(build(PNG_BYTES.subarray(2, 4), mimeType).data).toBe(PNG_BYTES.subarray(2, 4).toString('base64'));
  });

  it('encodes no bytes as the empty string', () => {
    expect(build(new Uint8Array(0), mimeType).data).toBe('');
  });

  it('passes a base64 string through', () => {
    const block = build(PNG_BASE64, mimeType);
    expect(block.data).toBe(PNG_BASE64);
    expectAcceptedByClients(block);
  });

  it('carries annotations', () => {
    const block = build(PNG_BYTES, mimeType, { audience: ['user'], priority: 0.9 });
    expect(block).toStrictEqual({
      type,
      data: PNG_BASE64,
      mimeType,
      annotations: { audience: ['user'], priority: 0.9 },
    });
    expectAcceptedByClients(block);
  });

  it.each([
    ['a file path', './chart.png'],
    ['unpadded base64', 'iVBORw0KGgr_AA'],
    ['base64url', PNG_BYTES.toString('base64url')],
    ['a wrong length', 'QUJD='],
    ['too much padding', 'QQ==='],
    ['padding in the middle', 'QQ==QUJD'],
    ['line breaks', `${PNG_BASE64.slice(0, 4)}\n${PNG_BASE64.slice(4)}`],
    ['spaces', ` ${PNG_BASE64}`],
    ['a data URL', `data:${mimeType};base64,${PNG_BASE64}`],
  ])('rejects %s with a RangeError', (_label, data) => {
    expect(() => build(data, mimeType)).toThrow(RangeError);
    expect(() => build(data, mimeType)).toThrow(/standard padded base64/);
  });

  it.each([null, undefined, 42, new ArrayBuffer(4), [1, 2, 3], { data: PNG_BASE64 }])(
    'rejects the data %p, neither bytes nor a string, with a TypeError',
    (data) => {
      expect(() => build(data as unknown as string, mimeType)).toThrow(TypeError);
    },
  );

  it('rejects an empty mimeType with a RangeError', () => {
    expect(() => build(PNG_BYTES, '')).toThrow(RangeError);
  });

  it.each([undefined, null, 42])('rejects the mimeType %p with a TypeError', (bad) => {
    expect(() => build(PNG_BYTES, bad as unknown as string)).toThrow(TypeError);
  });
});

describe('resourceLink', () => {
  it('builds a minimal link', () => {
    const block = resourceLink({ uri: 'file:///reports/q3.pdf', name: 'q3.pdf' });
    expect(block).toStrictEqual({ type: 'resource_link', uri: 'file:///reports/q3.pdf', name: 'q3.pdf' });
    expectAcceptedByClients(block);
  });

  it('builds a full link', () => {
    const block = resourceLink({
      uri: 'file:///reports/q3.pdf',
      name: 'q3.pdf',
      title: 'Q3 report',
      description: 'Quarterly figures',
      mimeType: 'application/pdf',
      size: 1024,
      annotations: { audience: ['user'], priority: 0.3, lastModified: '2025-01-12T15:00:58Z' },
    });
    expect(block).toStrictEqual({
      type: 'resource_link',
      uri: 'file:///reports/q3.pdf',
      name: 'q3.pdf',
      title: 'Q3 report',
      description: 'Quarterly figures',
      mimeType: 'application/pdf',
      size: 1024,
      annotations: { audience: ['user'], priority: 0.3, lastModified: '2025-01-12T15:00:58Z' },
    });
    expectAcceptedByClients(block);
  });

  it('leaves out members given as undefined', () => {
    expect(
      resourceLink({
        uri: 'mem://a',
        name: 'a',
        title: undefined,
        description: undefined,
        mimeType: undefined,
        size: undefined,
        annotations: undefined,
      }),
    ).toStrictEqual({ type: 'resource_link', uri: 'mem://a', name: 'a' });
  });

  it('takes only the members it knows, in a new object', () => {
    const link = { uri: 'mem://a', name: 'a', type: 'text', extra: 1 } as unknown as { uri: string; name: string };
    const block = resourceLink(link);
    expect(block).toStrictEqual({ type: 'resource_link', uri: 'mem://a', name: 'a' });
    expect(block).not.toBe(link);
  });

  it.each([0, 1, Number.MAX_SAFE_INTEGER])('accepts size %p', (size) => {
    expect(resourceLink({ uri: 'mem://a', name: 'a', size }).size).toBe(size);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('rejects size %p with a RangeError', (size) => {
    expect(() => resourceLink({ uri: 'mem://a', name: 'a', size })).toThrow(RangeError);
  });

  it('rejects a non-number size with a TypeError', () => {
    expect(() => resourceLink({ uri: 'mem://a', name: 'a', size: '12' as unknown as number })).toThrow(TypeError);
  });

  it.each([
    ['uri', { uri: '', name: 'a' }],
    ['name', { uri: 'mem://a', name: '' }],
    ['mimeType', { uri: 'mem://a', name: 'a', mimeType: '' }],
  ])('rejects an empty %s with a RangeError', (_member, link) => {
    expect(() => resourceLink(link)).toThrow(RangeError);
  });

  it.each([
    ['a missing uri', { name: 'a' }],
    ['a missing name', { uri: 'mem://a' }],
    ['a numeric title', { uri: 'mem://a', name: 'a', title: 1 }],
    ['a null description', { uri: 'mem://a', name: 'a', description: null }],
  ])('rejects %s with a TypeError', (_label, link) => {
    expect(() => resourceLink(link as unknown as { uri: string; name: string })).toThrow(TypeError);
  });

  it.each([undefined, null, 'mem://a'])('rejects %p for the link with a TypeError', (link) => {
    expect(() => resourceLink(link as unknown as { uri: string; name: string })).toThrow(TypeError);
  });
});

describe('embeddedText', () => {
  it('embeds text contents', () => {
    const block = embeddedText('config://settings', '{"a":1}');
    expect(block).toStrictEqual({ type: 'resource', resource: { uri: 'config://settings', text: '{"a":1}' } });
    expectAcceptedByClients(block);
  });

  it('puts the MIME type on the contents and the annotations on the block', () => {
    const block = embeddedText('config://settings', '{"a":1}', {
      mimeType: 'application/json',
      annotations: { audience: ['assistant'] },
    });
    expect(block).toStrictEqual({
      type: 'resource',
      resource: { uri: 'config://settings', text: '{"a":1}', mimeType: 'application/json' },
      annotations: { audience: ['assistant'] },
    });
    expectAcceptedByClients(block);
  });

  it('leaves out options given as undefined', () => {
    expect(embeddedText('mem://a', 'a', { mimeType: undefined, annotations: undefined })).toStrictEqual({
      type: 'resource',
      resource: { uri: 'mem://a', text: 'a' },
    });
  });

  it('keeps empty text', () => {
    expect(embeddedText('mem://a', '').resource).toStrictEqual({ uri: 'mem://a', text: '' });
  });

  it('rejects an empty uri, non-string text and options that are not an object', () => {
    expect(() => embeddedText('', 'a')).toThrow(RangeError);
    expect(() => embeddedText('mem://a', 1 as unknown as string)).toThrow(TypeError);
    expect(() => embeddedText('mem://a', 'a', null as unknown as object)).toThrow(TypeError);
    expect(() => embeddedText('mem://a', 'a', { mimeType: '' })).toThrow(RangeError);
  });
});

describe('embeddedBlob', () => {
  it('embeds bytes as a base64 blob', () => {
    const block = embeddedBlob('file:///logo.png', PNG_BYTES, { mimeType: 'image/png' });
    expect(block).toStrictEqual({
      type: 'resource',
      resource: { uri: 'file:///logo.png', blob: PNG_BASE64, mimeType: 'image/png' },
    });
    expectAcceptedByClients(block);
  });

  it('passes a base64 string through', () => {
    const block = embeddedBlob('file:///logo.png', PNG_BASE64);
    expect(block).toStrictEqual({ type: 'resource', resource: { uri: 'file:///logo.png', blob: PNG_BASE64 } });
    expectAcceptedByClients(block);
  });

  it('carries annotations', () => {
    const block = embeddedBlob('file:///logo.png', new Uint8Array(PNG_BYTES), {
      annotations: { lastModified: '2025-01-12T15:00:58.5+01:00' },
    });
    expect(block.annotations).toStrictEqual({ lastModified: '2025-01-12T15:00:58.5+01:00' });
    expectAcceptedByClients(block);
  });

  it('rejects malformed base64 and an empty uri', () => {
    expect(() => embeddedBlob('file:///logo.png', 'not base64')).toThrow(RangeError);
    expect(() => embeddedBlob('', PNG_BYTES)).toThrow(RangeError);
    expect(() => embeddedBlob('file:///logo.png', 5 as unknown as string)).toThrow(TypeError);
  });
});

describe('the content barrel', () => {
  it('exports every helper', () => {
    expect(Object.keys(barrel).sort()).toEqual([
      'assistantMessage',
      'audio',
      'embeddedBlob',
      'embeddedText',
      'image',
      'resourceLink',
      'text',
      'userMessage',
    ]);
  });
});

/** Never called: `npm run typecheck` fails if any line marked below compiles. */
export function typeLevelChecks(): void {
  const textBlock: TextContent = text('a');
  const imageBlock: ImageContent = image(PNG_BYTES, 'image/png');
  const audioBlock: AudioContent = audio('AAAA', 'audio/wav');
  const linkBlock: ResourceLink = resourceLink({ uri: 'mem://a', name: 'a' });
  const embeddedBlock: EmbeddedResource = embeddedText('mem://a', 'a');
  const blocks: ContentBlock[] = [textBlock, imageBlock, audioBlock, linkBlock, embeddedBlock];
  void blocks;

  // @ts-expect-error text takes a string
  text(42);
  // @ts-expect-error a text block is not an image block
  const notImage: ImageContent = text('a');
  void notImage;
  // @ts-expect-error roles are 'user' and 'assistant'
  text('a', { audience: ['system'] });
  // @ts-expect-error priority is a number
  text('a', { priority: 'high' });
  // @ts-expect-error unknown annotation
  text('a', { importance: 1 });
  // @ts-expect-error the MIME type is required
  image(PNG_BYTES);
  // @ts-expect-error an ArrayBuffer is not accepted: wrap it in a Uint8Array
  image(new ArrayBuffer(8), 'image/png');
  // @ts-expect-error a number is not data
  audio(5, 'audio/wav');
  // @ts-expect-error a link needs a name
  resourceLink({ uri: 'mem://a' });
  // @ts-expect-error size is a number
  resourceLink({ uri: 'mem://a', name: 'a', size: '10' });
  // @ts-expect-error unknown member
  resourceLink({ uri: 'mem://a', name: 'a', href: 'mem://b' });
  // @ts-expect-error the text is required
  embeddedText('mem://a');
  // @ts-expect-error options take the MIME type, not the text
  embeddedText('mem://a', 'a', { text: 'b' });
  // @ts-expect-error blob data is bytes or base64, not a number
  embeddedBlob('mem://a', 1);
  // @ts-expect-error the uri comes first
  embeddedBlob(PNG_BYTES, 'mem://a');
}
