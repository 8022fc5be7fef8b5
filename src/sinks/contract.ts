import type { OperatorFunction } from 'rxjs';
import type { Doc, DocEnvelope, Settlement, VersionOutcome } from '../core/envelope';

/**
 * The sink contract: a document in, its settlement out (indexed or dead-lettered). The settlement
 * names the document and its job, not the body: a sink need not keep a body it has serialised
 * while the bulk request is out.
 */
export interface Settled {
  env: { doc: Pick<Doc, 'index' | 'id'>; job: DocEnvelope['job'] };
  how: Settlement;
  /** A document of a versioned index, indexed: what its text did. */
  version?: VersionOutcome;
}

/** A sink is an operator from documents to their settlements; it never errors for one document. */
export type Sink = OperatorFunction<DocEnvelope, Settled>;
