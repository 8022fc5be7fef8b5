import { filter, from, lastValueFrom, map, toArray } from 'rxjs';
import { createMetrics, meteredStage } from '../../../src/core/metrics';

async function value(m: ReturnType<typeof createMetrics>, name: string, labels: Record<string, string>): Promise<number | undefined> {
  // Histograms report their _count and _sum series under the base name, told apart by metricName.
  const values = (await m.registry.getMetricsAsJSON()).flatMap((x) => x.values.map((v) => ({ ...v, metricName: (v as { metricName?: string }).metricName ?? x.name })));
  return values.find((v) => v.metricName === name && Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('meteredStage', () => {
  it('counts what a stage received and passed on, and times each item that comes out as itself', async () => {
    const m = createMetrics();
    let t = 0;
    const clock = () => (t += 2);
    const items = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
    const op = meteredStage(m, 'odd', filter((x: { n: number }) => x.n % 2 === 1), undefined, clock, 1);
    const out = await lastValueFrom(from(items).pipe(op, toArray()));
    expect(out.map((x) => x.n)).toEqual([1, 3]);
    expect(await value(m, 'freshet_stage_received_total', { stage: 'odd' })).toBe(4);
    expect(await value(m, 'freshet_stage_sent_total', { stage: 'odd' })).toBe(2);
    // Each passed item: entered at one tick, left at the next (2 ms apart).
    expect(await value(m, 'freshet_stage_duration_seconds_count', { stage: 'odd' })).toBe(2);
    expect(await value(m, 'freshet_stage_duration_seconds_sum', { stage: 'odd' })).toBeCloseTo(0.004, 9);
  });

  it('maps outputs back to their inputs with keyOf (a sink settles envelopes)', async () => {
    const m = createMetrics();
    const envs = [{ id: 'a' }, { id: 'b' }];
    const op = meteredStage(m, 'sink', map((env: { id: string }) => ({ env, how: 'indexed' })), (s) => s.env, undefined, 1);
    const out = await lastValueFrom(from(envs).pipe(op, toArray()));
    expect(out).toHaveLength(2);
    expect(await value(m, 'freshet_stage_duration_seconds_count', { stage: 'sink' })).toBe(2);
  });

  it('times every 8th item by default and still counts every one, across scrapes', async () => {
    const m = createMetrics();
    const op = meteredStage(m, 'sampled', map((x: { n: number }) => x));
    const run = () => lastValueFrom(from(Array.from({ length: 20 }, (_, n) => ({ n }))).pipe(op, toArray()));
    await run();
    expect(await value(m, 'freshet_stage_received_total', { stage: 'sampled' })).toBe(20);
    expect(await value(m, 'freshet_stage_duration_seconds_count', { stage: 'sampled' })).toBe(3);
    await run();
    expect(await value(m, 'freshet_stage_sent_total', { stage: 'sampled' })).toBe(40);
    expect(await value(m, 'freshet_stage_duration_seconds_count', { stage: 'sampled' })).toBe(6);
  });

  it('counts replaced items but does not time them, and passes errors through', async () => {
    const m = createMetrics();
    const op = meteredStage(m, 'copy', map((x: { n: number }) => ({ ...x })));
    await lastValueFrom(from([{ n: 1 }]).pipe(op, toArray()));
    expect(await value(m, 'freshet_stage_sent_total', { stage: 'copy' })).toBe(1);
    expect((await value(m, 'freshet_stage_duration_seconds_count', { stage: 'copy' })) ?? 0).toBe(0);
    const failing = meteredStage(m, 'boom', map((): { n: number } => {
      throw new Error('boom');
    }));
    await expect(lastValueFrom(from([{ n: 1 }]).pipe(failing))).rejects.toThrow('boom');
  });
});

describe('countFetch', () => {
  it('reports fetches by status class on scrape, as the labelled counter did, and keeps counting across scrapes', async () => {
    const m = createMetrics();
    for (const s of [200, 204, 200, 404, 503, 301]) m.countFetch(s);
    m.countFetch(undefined);
    m.countFetch(1234);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '2xx' })).toBe(3);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '3xx' })).toBe(1);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '4xx' })).toBe(1);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '5xx' })).toBe(1);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: 'error' })).toBe(1);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '12xx' })).toBe(1);
    m.countFetch(200);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '2xx' })).toBe(4);
    // get() (the soak bench's read) drains the tallies too.
    m.countFetch(200);
    expect((await m.fetches.get()).values.find((v) => v.labels['status_class'] === '2xx')?.value).toBe(5);
  });

  it('gives a status of 1000-1099 its own label, not the error label of fetches without a status', async () => {
    const m = createMetrics();
    m.countFetch(1042);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: '10xx' })).toBe(1);
    expect(await value(m, 'freshet_fetch_requests_total', { status_class: 'error' })).toBeUndefined();
  });
});
