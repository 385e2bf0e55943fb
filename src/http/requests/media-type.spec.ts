import { acceptedTypes, isJsonContentType } from './media-type.js';

describe('acceptedTypes', () => {
  it('allows nothing when the header is missing or empty', () => {
    expect(acceptedTypes(undefined)).toEqual({ json: false, eventStream: false });
    expect(acceptedTypes('')).toEqual({ json: false, eventStream: false });
  });

  it('reads the two exact types, alone and together', () => {
    expect(acceptedTypes('application/json')).toEqual({ json: true, eventStream: false });
    expect(acceptedTypes('text/event-stream')).toEqual({ json: false, eventStream: true });
    expect(acceptedTypes('application/json, text/event-stream')).toEqual({ json: true, eventStream: true });
  });

  it('ignores types it does not speak', () => {
    expect(acceptedTypes('text/html, application/xml, image/*')).toEqual({ json: false, eventStream: false });
    // Near misses are other types, not the ones the transport speaks.
    expect(acceptedTypes('application/json-seq, text/event-streams, application/jsonx')).toEqual({
      json: false,
      eventStream: false,
    });
  });

  it('treats */* as both types', () => {
    expect(acceptedTypes('*/*')).toEqual({ json: true, eventStream: true });
  });

  it('treats application/* as JSON only and text/* as event-stream only', () => {
    expect(acceptedTypes('application/*')).toEqual({ json: true, eventStream: false });
    expect(acceptedTypes('text/*')).toEqual({ json: false, eventStream: true });
    expect(acceptedTypes('application/*, text/*')).toEqual({ json: true, eventStream: true });
  });

  it('refuses a range whose quality is 0', () => {
    expect(acceptedTypes('application/json;q=0, text/event-stream')).toEqual({ json: false, eventStream: true });
    expect(acceptedTypes('application/json, text/event-stream;q=0')).toEqual({ json: true, eventStream: false });
    expect(acceptedTypes('*/*;q=0')).toEqual({ json: false, eventStream: false });
    // RFC 9110 qvalues allow up to three decimals.
    expect(acceptedTypes('application/json;q=0.000, text/event-stream;q=0.0')).toEqual({
      json: false,
      eventStream: false,
    });
  });

  it('keeps a range with a quality above 0', () => {
    expect(acceptedTypes('application/json;q=0.5, text/event-stream;q=0.001')).toEqual({
      json: true,
      eventStream: true,
    });
    expect(acceptedTypes('application/json;q=1, text/event-stream;q=1.0')).toEqual({ json: true, eventStream: true });
  });

  it('looks at q among other parameters', () => {
    expect(acceptedTypes('application/json;charset=utf-8;q=0, text/event-stream;charset=utf-8')).toEqual({
      json: false,
      eventStream: true,
    });
  });

  it('tolerates whitespace around ranges, parameters and "="', () => {
    expect(acceptedTypes('  application/json  ,\ttext/event-stream ')).toEqual({ json: true, eventStream: true });
    expect(acceptedTypes('application/json ; q = 0 , text/event-stream ; q = 0.8')).toEqual({
      json: false,
      eventStream: true,
    });
  });

  it('compares type and parameter names case-insensitively', () => {
    expect(acceptedTypes('Application/JSON, TEXT/Event-Stream')).toEqual({ json: true, eventStream: true });
    expect(acceptedTypes('APPLICATION/*;Q=0, Text/*')).toEqual({ json: false, eventStream: true });
  });

  it('keeps a type refused with q=0 refused when a wildcard also matches it (RFC 9110 section 12.5.1)', () => {
    // "If more than one media range applies to a given type, the most specific reference has precedence."
    expect(acceptedTypes('text/event-stream;q=0, */*')).toEqual({ json: true, eventStream: false });
    expect(acceptedTypes('*/*, application/json;q=0')).toEqual({ json: false, eventStream: true });
    expect(acceptedTypes('application/json;q=0, application/*, text/event-stream')).toEqual({
      json: false,
      eventStream: true,
    });
  });

  it('lets a type named beside a refused wildcard through (the specific range has precedence)', () => {
    expect(acceptedTypes('*/*;q=0, application/json')).toEqual({ json: true, eventStream: false });
    expect(acceptedTypes('text/*;q=0, text/event-stream, application/json')).toEqual({
      json: true,
      eventStream: true,
    });
  });
});

describe('isJsonContentType', () => {
  it('accepts application/json with no parameters, in any case', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON')).toBe(true);
    expect(isJsonContentType(' application/json ')).toBe(true);
  });

  it('accepts a UTF-8 charset, quoted or not, in any case and spacing', () => {
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/json;charset=UTF-8')).toBe(true);
    expect(isJsonContentType('application/json; charset="utf-8"')).toBe(true);
    expect(isJsonContentType('application/json; Charset = "UTF-8" ')).toBe(true);
  });

  it('refuses other charsets', () => {
    expect(isJsonContentType('application/json; charset=iso-8859-1')).toBe(false);
    expect(isJsonContentType('application/json; charset=utf-16')).toBe(false);
    expect(isJsonContentType('application/json; charset="latin1"')).toBe(false);
    expect(isJsonContentType('application/json; charset=')).toBe(false);
  });

  it('ignores parameters other than charset', () => {
    expect(isJsonContentType('application/json; foo=bar')).toBe(true);
    expect(isJsonContentType('application/json; foo=bar; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/json; foo=bar; charset=utf-16')).toBe(false);
  });

  it('refuses other types and a missing header', () => {
    expect(isJsonContentType(undefined)).toBe(false);
    expect(isJsonContentType('')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType('text/json')).toBe(false);
    expect(isJsonContentType('application/x-www-form-urlencoded')).toBe(false);
    expect(isJsonContentType('application/json-patch+json')).toBe(false);
    expect(isJsonContentType('application/jsonl')).toBe(false);
    expect(isJsonContentType('text/event-stream')).toBe(false);
    expect(isJsonContentType('*/*')).toBe(false);
  });
});
