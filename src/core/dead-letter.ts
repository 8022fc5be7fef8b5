/**
 * An item that cannot succeed as it is (a document the search node rejects, a subject that failed
 * too often), kept with its error in the dead-letter stream rather than lost.
 */
export interface DeadLetter {
  code: string;
  stage: string;
  subject?: string;
  id?: string;
  message: string;
  payload?: unknown;
}

/** Where dead letters go (the frontier's dead-letter stream in Redis). */
export interface DeadLetterWriter {
  deadLetter(entry: DeadLetter): Promise<void>;
}
