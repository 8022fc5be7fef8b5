import { auditLines, ledgerEntry, populationCompleteness } from '../../../src/monitor/ledger';

describe('ledgerEntry', () => {
  it('is complete when every declared post is indexed and no gap is open', () => {
    expect(ledgerEntry({ subject: 's', declared: 40, active: 40, tombstoned: 3 })).toEqual({ subject: 's', declared: 40, active: 40, tombstoned: 3, missing: 0, complete: true, reasons: [] });
  });

  it('names an open gap, and counts what it still hides', () => {
    const e = ledgerEntry({ subject: 's', declared: 40, active: 30, tombstoned: 0, meta: { gap_since: '9', gap_until: '1' } });
    expect([e.complete, e.missing, e.reasons]).toEqual([false, 10, ['gap']]);
  });

  it('calls a shortfall without a gap uncounted, and a surplus unconfirmed missing', () => {
    expect(ledgerEntry({ subject: 's', declared: 40, active: 38, tombstoned: 0 }).reasons).toEqual(['uncounted']);
    const over = ledgerEntry({ subject: 's', declared: 40, active: 42, tombstoned: 0 });
    expect([over.complete, over.missing, over.reasons]).toEqual([false, 0, ['unconfirmed_missing']]);
  });

  it('does not count what a platform cap makes unreachable as missing', () => {
    const e = ledgerEntry({ subject: 's', declared: 3000, active: 2000, tombstoned: 0, cappedAtPosts: 2000 });
    expect([e.complete, e.missing, e.reasons]).toEqual([true, 0, ['platform_cap']]);
  });

  it('closes the books of a gone account', () => {
    const e = ledgerEntry({ subject: 's', declared: 40, active: 12, tombstoned: 12, status: 'gone' });
    expect([e.complete, e.missing, e.reasons]).toEqual([true, 0, ['account_gone']]);
  });

  it('closes the books of a gone account whose gap or unreadable page was still open: nothing more can be read', () => {
    const e = ledgerEntry({ subject: 's', declared: 27, active: 18, tombstoned: 19, status: 'gone', meta: { gap_since: '6328092420000660', gap_until: '0', bad_pages: '1' } });
    expect([e.complete, e.missing, e.reasons]).toEqual([true, 0, ['account_gone']]);
  });

  it('names a page that could not be read, and a shortfall a full re-read proved unreachable', () => {
    expect(ledgerEntry({ subject: 's', declared: 40, active: 40, tombstoned: 0, meta: { bad_pages: '2' } }).reasons).toEqual(['partial']);
    const e = ledgerEntry({ subject: 's', declared: 40, active: 37, tombstoned: 0, meta: { short: '3' } });
    expect([e.complete, e.missing, e.reasons]).toEqual([false, 3, ['unreachable']]);
  });

  it('without a declared count, only gaps make it incomplete', () => {
    expect(ledgerEntry({ subject: 's', declared: undefined, active: 5, tombstoned: 0 }).complete).toBe(true);
  });
});

describe('population completeness and the audit', () => {
  const entries = [
    ledgerEntry({ subject: 'a', declared: 100, active: 100, tombstoned: 0 }),
    ledgerEntry({ subject: 'b', declared: 100, active: 90, tombstoned: 1, meta: { gap_since: '5', gap_until: '1' } }),
    ledgerEntry({ subject: 'c', declared: 10, active: 12, tombstoned: 0 }),
  ];

  it('counts each subject up to its declared number', () => {
    expect(populationCompleteness(entries)).toBeCloseTo(200 / 210, 10);
    expect(populationCompleteness([])).toBeNull();
  });

  it('lists exactly the incomplete subjects with their reasons, then a summary', () => {
    expect(auditLines(entries)).toEqual([
      'b\tdeclared=100\tindexed=90\ttombstoned=1\tmissing=10\tgap',
      'c\tdeclared=10\tindexed=12\ttombstoned=0\tmissing=0\tunconfirmed_missing',
      '3 subjects, 2 with open gaps; completeness 95.24 %',
    ]);
  });
});
