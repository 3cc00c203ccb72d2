// The proxy's shared deadline timer (http-deadlines.ts): each deadline fires once, after its time and in
// time order, a cleared one never; one added while another fires, or earlier than the armed one, still fires.
import { describe, expect, it } from 'vitest';
import { addDeadline, clearDeadline } from '../../packages/runtime/src/server/extensions/http-deadlines.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('shared deadlines', () => {
  it('fire after their time, in order; a cleared one never', async () => {
    const fired: [string, number][] = [];
    const start = Date.now();
    const at = (name: string, ms: number) => addDeadline(start + ms, () => fired.push([name, Date.now() - start]));
    at('late', 120);
    const cleared = at('cleared', 60);
    at('early', 30); // earlier than the armed one: re-arms
    at('again', 90);
    clearDeadline(cleared);
    await sleep(200);
    expect(fired.map(([n]) => n)).toEqual(['early', 'again', 'late']);
    for (const [name, ms] of fired) expect(ms, name).toBeGreaterThanOrEqual({ early: 30, again: 90, late: 120 }[name]! - 1);
  });

  // A timer that fires late (a busy machine: CI once fired 'late' before 'again') finds several due at once.
  it('due together, they fire in time order, not in the order they were added', async () => {
    const fired: string[] = [];
    const start = Date.now();
    addDeadline(start + 20, () => fired.push('second'));
    const cleared = addDeadline(start + 15, () => fired.push('cleared by first'));
    addDeadline(start + 10, () => {
      fired.push('first');
      clearDeadline(cleared);
    });
    while (Date.now() - start < 40); // the event loop held past all three, as a loaded machine does
    await sleep(30);
    expect(fired).toEqual(['first', 'second']);
  });

  it('one added while another fires is kept', async () => {
    const fired: string[] = [];
    addDeadline(Date.now() + 20, () => {
      fired.push('first');
      addDeadline(Date.now() + 20, () => fired.push('added'));
    });
    addDeadline(Date.now() + 100, () => fired.push('last'));
    await sleep(160);
    expect(fired).toEqual(['first', 'added', 'last']);
  });
});
