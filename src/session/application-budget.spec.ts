import { ApplicationBudget } from './application-budget.js';

describe('ApplicationBudget', () => {
  it('gives every server of the application one budget, at the smallest limit any of them asks', () => {
    const application = new ApplicationBudget();
    const first = application.join(1_000);
    const second = application.join(400);
    const third = application.join(2_000);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(first.limit).toBe(400);
  });

  it('shares nothing between two applications', () => {
    expect(new ApplicationBudget().join(10)).not.toBe(new ApplicationBudget().join(10));
  });
});
