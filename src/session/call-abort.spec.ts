import { getEventListeners } from 'node:events';
import { CallAbort } from './call-abort.js';

describe('CallAbort', () => {
  it('makes no AbortController until the signal is read, and one that is already aborted after', () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    abort.onAbort(() => heard.push('lifecycle'));
    const reason = new Error('cancelled');
    abort.abort(reason);
    expect(heard).toEqual(['lifecycle']);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(reason);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });

  it('aborts a signal made before, before any listener runs, and runs its own listeners first', () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    abort.onAbort(() => heard.push(`lifecycle saw aborted=${abort.signal.aborted}`));
    abort.signal.addEventListener('abort', () => heard.push('handler'));
    abort.onAbort(() => heard.push('lifecycle, added later'));
    abort.abort('why');
    expect(heard).toEqual(['lifecycle saw aborted=true', 'lifecycle, added later', 'handler']);
    expect(abort.signal.reason).toBe('why');
  });

  it('gives no reason as an AbortError, the same one on both sides', () => {
    const early = new CallAbort();
    early.abort(undefined);
    expect(early.reason).toBeInstanceOf(DOMException);
    expect((early.reason as DOMException).name).toBe('AbortError');
    expect(early.signal.reason).toBe(early.reason);
    const late = new CallAbort();
    const { signal } = late;
    late.abort(undefined);
    expect(signal.reason).toBe(late.reason);
    expect((late.reason as DOMException).name).toBe('AbortError');
  });

  it('aborts once: the first reason stays, listeners run once, and one added after never runs', () => {
    const abort = new CallAbort();
    let runs = 0;
    abort.onAbort(() => runs++);
    abort.abort('first');
    abort.abort('second');
    expect(abort.reason).toBe('first');
    expect(runs).toBe(1);
    let lateRuns = 0;
    abort.onAbort(() => lateRuns++)();
    abort.abort('third');
    expect(lateRuns).toBe(0);
  });

  it('skips a listener removed before the abort, or by a listener that ran before it', () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    abort.onAbort(() => heard.push('removed early'))();
    let removeThird: () => void = () => undefined;
    abort.onAbort(() => {
      heard.push('first');
      removeThird();
    });
    removeThird = abort.onAbort(() => heard.push('third'));
    abort.abort('why');
    expect(heard).toEqual(['first']);
  });

  it('goes on past a listener that throws, and still aborts the signal; the error surfaces asynchronously', async () => {
    const abort = new CallAbort();
    const { signal } = abort;
    const heard: string[] = [];
    abort.onAbort(() => {
      throw new Error('boom');
    });
    abort.onAbort(() => heard.push('second'));
    const surfaced = new Promise<unknown>((resolve) => {
      const original = globalThis.queueMicrotask;
      globalThis.queueMicrotask = (callback) => {
        globalThis.queueMicrotask = original;
        try {
          callback();
        } catch (error) {
          resolve(error);
        }
      };
    });
    abort.abort('why');
    expect(heard).toEqual(['second']);
    expect(signal.aborted).toBe(true);
    expect(await surfaced).toEqual(new Error('boom'));
  });
});

describe('CallAbort and the signal it made', () => {
  it('leaves no listener on the signal once its own listeners are gone, and adds one again for a new one', () => {
    const abort = new CallAbort();
    const remove = abort.onAbort(() => undefined);
    const { signal } = abort;
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    remove();
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    const heard: string[] = [];
    abort.onAbort(() => heard.push('again'));
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    abort.abort('why');
    expect(heard).toEqual(['again']);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('puts nothing on a signal made while no listener waits', () => {
    const abort = new CallAbort();
    const { signal } = abort;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    abort.abort('why');
    expect(signal.reason).toBe('why');
  });
});
