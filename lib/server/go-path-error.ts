// Go's text for a failed file system call, as start-up errors print it: `open /var/log/audit.log: permission denied`.

export function goPathError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.syscall === undefined || e.path === undefined) return e.message;
  const description = /^[A-Z]+: ([^,]+),/.exec(e.message)?.[1] ?? e.message;
  return `${e.syscall} ${e.path}: ${description}`;
}
