/**
 * The logging surface stages see. The CLI injects a pino logger (which satisfies it); tests
 * inject `silentLogger` or a recording one. Log an error once, where it is handled, with fields.
 */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  child(bindings: object): Logger;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  fields: object;
}

/** A logger that hands each record, bindings merged, to `write` (a test's array, another thread). */
export function loggerTo(write: (record: LogRecord) => void, bindings: object = {}): Logger {
  const at = (level: LogRecord['level']) => (obj: object, msg: string) => write({ level, msg, fields: { ...bindings, ...obj } });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (more: object) => loggerTo(write, { ...bindings, ...more }) };
}

/** Keeps records in memory; for tests that assert what was logged. */
export function recordingLogger(records: LogRecord[] = [], bindings: object = {}): Logger & { records: LogRecord[] } {
  return { ...loggerTo((r) => records.push(r), bindings), records };
}
