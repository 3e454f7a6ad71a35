/** The logger every layer receives; the console one is built by the composition root. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

export function consoleLogger(level: 'silent' | 'error' | 'info'): Logger {
  const quiet = level === 'silent';
  return {
    info: (m) => {
      if (level === 'info') console.log(m);
    },
    warn: (m) => {
      if (!quiet) console.warn(m);
    },
    error: (m, err) => {
      if (quiet) return;
      // Log the class and message only: stack traces and SQL stay out of logs users may share.
      const detail = err instanceof Error ? ` (${err.name}: ${err.message})` : '';
      console.error(m + detail);
    },
  };
}
