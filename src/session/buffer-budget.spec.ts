import { BufferBudget } from './buffer-budget.js';

describe('BufferBudget', () => {
  it('adds up what each holder holds, and a holder back at zero is no longer one', () => {
    const budget = new BufferBudget(100);
    const never = (): void => {
      throw new Error('not over the budget');
    };
    budget.charge('a', 30, never);
    budget.charge('b', 50, never);
    budget.charge('a', -10, never);
    expect(budget.used).toBe(70);
    expect(budget.heldBy('a')).toBe(20);
    budget.charge('a', -20, never);
    expect(budget.heldBy('a')).toBe(0);
    expect(budget.used).toBe(50);
  });

  it('never counts a release below zero (one that comes after the holder was relieved)', () => {
    const budget = new BufferBudget(100);
    budget.charge('a', 10, () => undefined);
    budget.charge('a', -50, () => undefined);
    expect(budget.used).toBe(0);
    budget.charge('b', 10, () => undefined);
    expect(budget.used).toBe(10);
  });

  it('past the limit relieves the largest holder first, until the sum fits', () => {
    const budget = new BufferBudget(100);
    const relieved: string[] = [];
    const releasing = (key: string) => (): void => {
      relieved.push(key);
      budget.charge(key, -budget.heldBy(key), () => undefined);
    };
    budget.charge('small', 20, releasing('small'));
    budget.charge('large', 60, releasing('large'));
    budget.charge('medium', 30, releasing('medium'));
    expect(relieved).toEqual(['large']);
    expect(budget.used).toBe(50);
    budget.charge('small', 80, releasing('small'));
    // small (100) goes; medium (30) fits on its own.
    expect(relieved).toEqual(['large', 'small']);
    expect(budget.used).toBe(30);
  });

  it('counts out a holder whose relief frees nothing, or throws, so the others are relieved in turn', () => {
    const budget = new BufferBudget(10);
    const calls: string[] = [];
    budget.charge('stuck', 8, () => calls.push('stuck'));
    budget.charge('broken', 6, () => {
      calls.push('broken');
      throw new Error('cannot');
    });
    expect(calls).toEqual(['stuck']);
    expect(budget.used).toBe(6);
    budget.charge('broken', 6, () => undefined);
    expect(calls).toEqual(['stuck', 'broken']);
    expect(budget.used).toBe(0);
  });

  it('a holder partly relieved stays counted with what it still holds', () => {
    const budget = new BufferBudget(100);
    let step = 0;
    const relieve = (): void => {
      // First relief cuts the connection (60 of 90 go); the rest goes with the session, next time.
      budget.charge('s', step++ === 0 ? -60 : -budget.heldBy('s'), relieve);
    };
    budget.charge('s', 90, relieve);
    budget.charge('t', 20, () => undefined);
    expect(budget.heldBy('s')).toBe(30);
    expect(budget.used).toBe(50);
    budget.charge('t', 60, () => undefined);
    expect(budget.heldBy('t')).toBe(0);
    expect(budget.heldBy('s')).toBe(30);
  });

  it('reserves room for a write on its way by relieving holders, and refuses what does not fit even then', () => {
    const budget = new BufferBudget(100);
    const relieved: string[] = [];
    budget.charge('stalled', 70, () => {
      relieved.push('stalled');
      budget.charge('stalled', -70, () => undefined);
    });
    const release = budget.reserve(50);
    expect(release).toBeDefined();
    expect(relieved).toEqual(['stalled']);
    expect(budget.used).toBe(50);
    expect(budget.reservedChars).toBe(50);
    // Reservations are never relieved (only their answer frees them): one past the rest is refused.
    expect(budget.reserve(60)).toBeUndefined();
    expect(budget.used).toBe(50);
    release!();
    release!();
    expect(budget.used).toBe(0);
    expect(budget.reservedChars).toBe(0);
  });

  it('refuses a reservation that other reservations alone leave no room for, relieving nobody for it', () => {
    const budget = new BufferBudget(100);
    const release = budget.reserve(70)!;
    let relieved = 0;
    budget.charge('reader', 20, () => {
      relieved++;
      budget.charge('reader', -20, () => undefined);
    });
    // 70 reserved + 40 > 100 whatever the reader gives up: it keeps its stream.
    expect(budget.reserve(40)).toBeUndefined();
    expect(relieved).toBe(0);
    expect(budget.used).toBe(90);
    release();
  });

  it('relieves holders, not reservations, when a charge goes past the limit', () => {
    const budget = new BufferBudget(100);
    const release = budget.reserve(80)!;
    let relieved = 0;
    budget.charge('a', 30, () => {
      relieved++;
      budget.charge('a', -30, () => undefined);
    });
    expect(relieved).toBe(1);
    expect(budget.used).toBe(80);
    release();
  });

  it('tightens to a lower limit, relieving holders to fit, and never loosens', () => {
    const budget = new BufferBudget(100);
    budget.charge('a', 90, () => budget.charge('a', -90, () => undefined));
    budget.tighten(200);
    expect(budget.limit).toBe(100);
    budget.tighten(50);
    expect(budget.limit).toBe(50);
    expect(budget.used).toBe(0);
  });
});
