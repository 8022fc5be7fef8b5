import type { OperatorFunction } from 'rxjs';
import type { DocEnvelope, Settlement, VersionOutcome } from '../core/envelope';

/** The sink contract: a document in, the same document out once it is settled (indexed or dead-lettered). */
export interface Settled {
  env: DocEnvelope;
  how: Settlement;
  /** A document of a versioned index, indexed: what its text did. */
  version?: VersionOutcome;
}

/** A sink is an operator from documents to their settlements; it never errors for one document. */
export type Sink = OperatorFunction<DocEnvelope, Settled>;
