import { missingClientCapability } from './client-capabilities.js';
import type { ClientCapabilities } from './mcp.types.js';

const form = { message: 'Your name?', requestedSchema: { type: 'object', properties: {} } };
const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' };

describe('missingClientCapability: elicitation/create (form)', () => {
  it.each([
    ['an empty elicitation object (what 2025-06-18 clients send)', { elicitation: {} }],
    ['elicitation.form', { elicitation: { form: {} } }],
    ['elicitation with form and url', { elicitation: { form: {}, url: {} } }],
  ])('is satisfied by %s', (_label, capabilities) => {
    expect(missingClientCapability('elicitation/create', form, capabilities)).toBeUndefined();
    expect(missingClientCapability('elicitation/create', { ...form, mode: 'form' }, capabilities)).toBeUndefined();
  });

  it.each([
    ['no capabilities', {}],
    ['sampling only', { sampling: {} }],
    ['elicitation: true', { elicitation: true }],
    ['elicitation: null', { elicitation: null }],
    ['elicitation as an array', { elicitation: [] }],
  ])('names "elicitation" with %s', (_label, capabilities) => {
    expect(missingClientCapability('elicitation/create', form, capabilities as ClientCapabilities)).toBe('elicitation');
  });

  it.each([
    ['url only', { elicitation: { url: {} } }],
    ['form that is not an object', { elicitation: { form: true } }],
  ])('names "elicitation.form" when the client declared %s', (_label, capabilities) => {
    expect(missingClientCapability('elicitation/create', form, capabilities)).toBe('elicitation.form');
  });
});

describe('missingClientCapability: elicitation/create (url)', () => {
  it('is satisfied by elicitation.url', () => {
    expect(missingClientCapability('elicitation/create', url, { elicitation: { url: {} } })).toBeUndefined();
    expect(missingClientCapability('elicitation/create', url, { elicitation: { form: {}, url: {} } })).toBeUndefined();
  });

  it.each([
    ['no capabilities', {}],
    ['an empty elicitation object (form only, by default)', { elicitation: {} }],
    ['elicitation.form only', { elicitation: { form: {} } }],
    ['url that is not an object', { elicitation: { url: true } }],
  ])('names "elicitation.url" with %s', (_label, capabilities) => {
    expect(missingClientCapability('elicitation/create', url, capabilities)).toBe('elicitation.url');
  });
});

describe('missingClientCapability: sampling and roots', () => {
  it('needs sampling for sampling/createMessage', () => {
    expect(missingClientCapability('sampling/createMessage', {}, { sampling: {} })).toBeUndefined();
    expect(missingClientCapability('sampling/createMessage', {}, {})).toBe('sampling');
    expect(missingClientCapability('sampling/createMessage', {}, { sampling: true })).toBe('sampling');
    expect(missingClientCapability('sampling/createMessage', {}, { roots: {}, elicitation: {} })).toBe('sampling');
  });

  it('needs sampling.tools to offer tools (even an empty list), and sampling alone without', () => {
    const withTools = { tools: [] };
    expect(missingClientCapability('sampling/createMessage', withTools, { sampling: {} })).toBe('sampling.tools');
    expect(missingClientCapability('sampling/createMessage', withTools, { sampling: { tools: true } })).toBe(
      'sampling.tools',
    );
    expect(missingClientCapability('sampling/createMessage', withTools, { sampling: { tools: {} } })).toBeUndefined();
    expect(missingClientCapability('sampling/createMessage', withTools, {})).toBe('sampling');
    expect(missingClientCapability('sampling/createMessage', {}, { sampling: { context: {} } })).toBeUndefined();
  });

  it.each(['thisServer', 'allServers'])('needs sampling.context for includeContext %s', (includeContext) => {
    const params = { includeContext };
    expect(missingClientCapability('sampling/createMessage', params, { sampling: {} })).toBe('sampling.context');
    expect(missingClientCapability('sampling/createMessage', params, { sampling: { tools: {} } })).toBe(
      'sampling.context',
    );
    expect(missingClientCapability('sampling/createMessage', params, { sampling: { context: {} } })).toBeUndefined();
  });

  it('asks no sampling.context for includeContext none', () => {
    expect(missingClientCapability('sampling/createMessage', { includeContext: 'none' }, { sampling: {} })).toBe(
      undefined,
    );
  });

  it('needs roots for roots/list', () => {
    expect(missingClientCapability('roots/list', {}, { roots: {} })).toBeUndefined();
    expect(missingClientCapability('roots/list', {}, { roots: { listChanged: true } })).toBeUndefined();
    expect(missingClientCapability('roots/list', {}, {})).toBe('roots');
    expect(missingClientCapability('roots/list', {}, { roots: 'yes' })).toBe('roots');
    expect(missingClientCapability('roots/list', {}, { sampling: {} })).toBe('roots');
  });

  it('asks nothing of the client for other methods', () => {
    expect(missingClientCapability('ping', {}, {})).toBeUndefined();
    expect(missingClientCapability('notifications/message', {}, {})).toBeUndefined();
  });
});
