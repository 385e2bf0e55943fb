import type { LoggerService } from '@nestjs/common';

/** A Nest logger that keeps every log line, so tests can assert on what the library logged. */
export class RecordingLogger implements LoggerService {
  /** Every line, in order: its level and its message and extra arguments joined with ' | '. */
  readonly entries: { level: string; text: string }[] = [];

  private record(level: string, message: unknown, rest: unknown[]): void {
    this.entries.push({ level, text: [message, ...rest].map(String).join(' | ') });
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.record('log', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.record('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.record('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.record('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.record('verbose', message, rest);
  }

  /** The lines logged at `level`. */
  at(level: string): string[] {
    return this.entries.filter((entry) => entry.level === level).map((entry) => entry.text);
  }
}
