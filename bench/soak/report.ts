import type { MixedFigures } from './mixed-phase.js';
import type { ServerStats } from './protocol.js';
import type { SessionsFigures } from './sessions-phase.js';
import type { StallFigures } from './stall-phase.js';
import { change, mb } from './util.js';

const HEAP_TOLERANCE = 0.05;

function table(title: string, rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [`\n${title}`, line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}

const within = (before: number, after: number): string =>
  after <= before * (1 + HEAP_TOLERANCE) ? 'yes' : `NO (${change(before, after)})`;

const ms = (value: number): string => (Number.isNaN(value) ? '-' : `${value.toFixed(2)} ms`);

export function formatSessions(figures: SessionsFigures): string {
  const { baseline, after } = figures;
  return table(`1. ${figures.requested} sessions created (raw initialize) and expired by the idle sweep`, [
    ['', 'value'],
    ['sessions created / failed', `${figures.created} / ${figures.failed}`],
    ['creation', `${figures.createSeconds.toFixed(1)} s (${(figures.created / figures.createSeconds).toFixed(0)}/s)`],
    ['most live at once', String(figures.maxLive)],
    [
      'all expired',
      figures.expiredWithin === undefined ? 'NO (timed out)' : `${figures.expiredWithin.toFixed(1)} s after the last`,
    ],
    ['heapUsed baseline (GC)', mb(baseline.heapUsed)],
    ['heapUsed peak (sampled)', mb(figures.peakHeapUsed)],
    ['heapUsed after (GC)', `${mb(after.heapUsed)} (${change(baseline.heapUsed, after.heapUsed)})`],
    ['after within 5 % of baseline', within(baseline.heapUsed, after.heapUsed)],
    ['rss baseline / after', `${mb(baseline.rss)} / ${mb(after.rss)}`],
    ['sessions left', String(after.sessions)],
  ]);
}

function echoRow(label: string, echo: StallFigures['echoBefore']): string[] {
  return [
    label,
    `${echo.perSecond.toFixed(0)}/s`,
    ms(echo.p50),
    ms(echo.p99),
    ms(echo.max),
    `${echo.ok}/${echo.failed}`,
  ];
}

export function formatStall(figures: StallFigures): string {
  const { baseline, during, after } = figures;
  const heap = table(`2. ${figures.stalled} stalled SSE readers (never read): ${figures.variant}`, [
    ['', 'value'],
    [
      'broadcast',
      `${figures.rounds} rounds of ${figures.notificationsPerRound} notifications (${figures.payloadBytes} B text), ` +
        `${figures.notificationsSent} sent, ${figures.broadcastSeconds.toFixed(1)} s`,
    ],
    [
      'stalled readers ended or cut (overflow, budget)',
      `${figures.ended} of ${figures.stalled}${figures.allEnded ? ' (all)' : ' (NOT all: time limit)'}`,
    ],
    ['heapUsed before (GC)', mb(baseline.heapUsed)],
    ['heapUsed during (GC, first overflow)', mb(during.heapUsed)],
    ['heapUsed peak (sampled)', mb(figures.peakHeapUsed)],
    ['rss before / peak / after', `${mb(baseline.rss)} / ${mb(figures.peakRss)} / ${mb(after.rss)}`],
    ['heapUsed after (GC)', `${mb(after.heapUsed)} (${change(baseline.heapUsed, after.heapUsed)})`],
    ['after within 5 % of before', within(baseline.heapUsed, after.heapUsed)],
    [
      'quiet after (no sessions, no connections)',
      figures.afterSettled ? 'yes' : `NO (${after.sessions} sessions, ${after.connections} connections)`,
    ],
  ]);
  const echo = table('   echo tools/call from a normal client (4 concurrent, one session)', [
    ['', 'req/s', 'p50', 'p99', 'max', 'ok/failed'],
    echoRow('before the stall', figures.echoBefore),
    echoRow('during the broadcasts', figures.echoDuring),
  ]);
  const p99 = figures.echoDuring.p99 / figures.echoBefore.p99;
  const rate = figures.echoDuring.perSecond / figures.echoBefore.perSecond;
  const targets = [
    `   echo p99 during / before: ${p99.toFixed(2)}× (target ≤ 2×): ${p99 <= 2 ? 'yes' : 'NO'}`,
    `   echo rate during / before: ${rate.toFixed(2)}× (target ≥ 0.8×): ${rate >= 0.8 ? 'yes' : 'NO'}`,
    `   heapUsed peak: ${mb(figures.peakHeapUsed)} (target ≤ 256 MB): ${figures.peakHeapUsed <= 256 * 1024 * 1024 ? 'yes' : 'NO'}`,
  ];
  return heap + '\n' + echo + '\n' + targets.join('\n');
}

function keysOf(...records: Readonly<Record<string, number>>[]): string[] {
  return [...new Set(records.flatMap((record) => Object.keys(record)))].sort();
}

function compareRows(
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
  prefix: string,
): string[][] {
  return keysOf(before, after).map((key) => {
    const b = before[key] ?? 0;
    const a = after[key] ?? 0;
    return [`${prefix}${key}`, String(b), String(a), a === b ? '' : 'differs'];
  });
}

export function formatMixed(figures: MixedFigures): string {
  const actions = table(`3. Mixed load: ${figures.clients} clients for ${figures.seconds.toFixed(0)} s`, [
    ['action', 'ok', 'failed', 'aborted'],
    ...Object.entries(figures.actions).map(([name, counts]) => [
      name,
      String(counts.ok),
      String(counts.failed),
      String(counts.aborted),
    ]),
    ['sessions opened / most live', String(figures.sessionsOpened), String(figures.maxLiveSessions), ''],
  ]);
  const { baseline: b, after: a } = figures;
  const sum = (record: Readonly<Record<string, number>>): number => Object.values(record).reduce((x, y) => x + y, 0);
  const state = table(
    `   server before vs after (quiet ${figures.quiescent ? 'after' : 'NOT reached within'} ${figures.quiescenceSeconds.toFixed(1)} s)`,
    [
      ['', 'baseline', 'after', ''],
      [
        'heapUsed (GC)',
        mb(b.heapUsed),
        mb(a.heapUsed),
        `${change(b.heapUsed, a.heapUsed)}, within 5 %: ${within(b.heapUsed, a.heapUsed)}`,
      ],
      ['heapUsed peak (sampled)', '', mb(figures.peakHeapUsed), ''],
      ['rss', mb(b.rss), mb(a.rss), ''],
      ['external', mb(b.external), mb(a.external), ''],
      ['sessions', String(b.sessions), String(a.sessions), ''],
      ['open connections', String(b.connections), String(a.connections), ''],
      ['active resources (total)', String(sum(b.resources)), String(sum(a.resources)), ''],
      ...compareRows(b.resources, a.resources, '  '),
      ['http server listeners (total)', String(sum(b.serverListeners)), String(sum(a.serverListeners)), ''],
      ...compareRows(b.serverListeners, a.serverListeners, '  '),
      ['process listeners (total)', String(sum(b.processListeners)), String(sum(a.processListeners)), ''],
      ...compareRows(b.processListeners, a.processListeners, '  '),
    ],
  );
  return actions + '\n' + state;
}

export type { ServerStats };
