import { acceptedTypes, isJsonContentType } from './media-type.js';
import { MediaTypeVerdicts } from './media-type-verdicts.js';

describe('MediaTypeVerdicts', () => {
  it('answers as the readers do, for values seen before and after the memo was cleared', () => {
    const verdicts = new MediaTypeVerdicts();
    const values = [
      'application/json;q=0, text/event-stream',
      'application/json, text/event-stream',
      '*/*, text/event-stream;q=0',
      '',
      undefined,
    ];
    for (let round = 0; round < 3; round++) {
      for (const value of values) expect(verdicts.accepted(value)).toEqual(acceptedTypes(value));
      for (let i = 0; i < 200; i++) {
        expect(verdicts.accepted(`application/json, x/y${i}`)).toEqual({ json: true, eventStream: false });
        expect(verdicts.isJson(`application/json; x=${i}`)).toBe(isJsonContentType(`application/json; x=${i}`));
      }
    }
    expect(verdicts.isJson('application/json; charset=utf-16')).toBe(false);
    expect(verdicts.isJson('application/json; charset=utf-16')).toBe(false);
    expect(verdicts.isJson('application/json')).toBe(true);
    expect(verdicts.isJson(undefined)).toBe(false);
  });

  it('hands out verdicts nobody can change, the same one for the same value', () => {
    const verdicts = new MediaTypeVerdicts();
    const types = verdicts.accepted('application/json, text/event-stream');
    expect(Object.isFrozen(types)).toBe(true);
    expect(verdicts.accepted('application/json, text/event-stream')).toBe(types);
  });

  it('is one per transport: what one remembers, another does not share', () => {
    const one = new MediaTypeVerdicts();
    const other = new MediaTypeVerdicts();
    expect(one.accepted('application/json, text/event-stream')).not.toBe(
      other.accepted('application/json, text/event-stream'),
    );
  });
});
