import { bowAggregate, bowPage } from './bow';
import { shAggregate, shCjkPage, shPage, type Prf, type TpFpFn } from './shingles';

/** The three metrics of one page (extraction-dev README, "Metrics"). */
export interface PageScore {
  sh: TpFpFn;
  shCjk: TpFpFn;
  bow: Prf;
}

export interface AggregateScore {
  n: number;
  SH: Prf;
  SH_CJK: Prf;
  BOW: Prf;
}

export function scorePage(truth: string, pred: string): PageScore {
  return { sh: shPage(truth, pred), shCjk: shCjkPage(truth, pred), bow: bowPage(truth, pred) };
}

export function aggregate(pages: PageScore[]): AggregateScore {
  return {
    n: pages.length,
    SH: shAggregate(pages.map((p) => p.sh)),
    SH_CJK: shAggregate(pages.map((p) => p.shCjk)),
    BOW: bowAggregate(pages.map((p) => p.bow)),
  };
}
