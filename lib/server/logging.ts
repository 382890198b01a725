// The process logger: --logging-format text (one readable line per event, via pino-pretty) or json (pino's lines).
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export interface LoggerOptions {
  level: string;
  /** '' chooses text when `destination` is a terminal, json otherwise. */
  format: '' | 'text' | 'json';
  destination?: NodeJS.WritableStream & { isTTY?: boolean; fd?: number };
}

export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const format = options.format === '' ? (destination.isTTY ? 'text' : 'json') : options.format;
  // No base bindings: a subsystem's child logger adds its own `component` (etcd, watch-cache, audit …), and a JSON line
  // must not carry a key twice (pino appends a child's bindings to its parent's; Elasticsearch rejects such documents).
  const settings = { level: options.level, base: undefined, redact: ['req.headers.authorization'] };
  if (format === 'json') return pino(settings, destination);
  const stream = pretty({
    destination,
    sync: true,
    colorize: Boolean(destination.isTTY),
    singleLine: true,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: 'pid,hostname,component',
  });
  // pino-pretty prints an `err` with its stack over several lines; text keeps one line per event: the error's text.
  const oneLineErrors = {
    log(obj: Record<string, unknown>): Record<string, unknown> {
      if (!('err' in obj)) return obj;
      const { err, ...rest } = obj;
      return { ...rest, errorText: err instanceof Error ? err.message : String(err) };
    },
  };
  return pino({ ...settings, formatters: oneLineErrors }, stream);
}
