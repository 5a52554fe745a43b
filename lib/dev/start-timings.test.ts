import { describe, expect, it } from 'vitest';
import { parseStartTimings, StartTimings } from './start-timings';

/* Issue 45: npm run dev says where its first minutes go (DEV_TIMINGS=1), and bench/first-minutes.ts reads it back. */
describe('start timings', () => {
  it('prints each phase with its start and end in seconds, in order of start, and reads back the same', async () => {
    let now = 0;
    const t = new StartTimings(() => now);
    now = 1_200;
    t.mark('modules loaded');
    const endDb = t.begin('database');
    now = 1_300;
    let resolveTron!: () => void;
    const tron = t.time('tron', new Promise<void>((r) => (resolveTron = r)));
    t.mark('next spawned');
    now = 4_000;
    endDb();
    resolveTron();
    await tron;
    const open = t.begin('anvils');
    const line = t.line();
    expect(line).toBe('[dev] start timings (s since start): modules loaded 1.2, database 1.2–4.0, tron 1.3–4.0, next spawned 1.3, anvils 4.0–…');
    expect(parseStartTimings(line)).toEqual([
      { name: 'modules loaded', from: 1.2, to: 1.2 },
      { name: 'database', from: 1.2, to: 4 },
      { name: 'tron', from: 1.3, to: 4 },
      { name: 'next spawned', from: 1.3, to: 1.3 },
      { name: 'anvils', from: 4, to: undefined },
    ]);
    open();
  });

  it('a phase that fails still ends', async () => {
    let now = 0;
    const t = new StartTimings(() => now);
    const failing = t.time('migrations', Promise.reject(new Error('no')));
    now = 2_500;
    await expect(failing).rejects.toThrow('no');
    expect(t.line()).toContain('migrations 0.0–2.5');
  });
});
