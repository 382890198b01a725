// The 409 of an apply that conflicts with other managers (fieldmanager/internal/conflict.go).
import { applyConflict, type StatusError } from '../errors';
import { goQuote } from './go-json';
import { parseIdentifier } from './entries';
import { pathString } from './path-element';
import type { Conflict } from './updater';

/** printManager: `"m"`, `"m" with subresource "status"`, plus ` using <apiVersion>` for Update owners. */
export function printManager(id: string): string {
  const entry = parseIdentifier(id);
  let text = goQuote(entry.manager ?? '');
  if (entry.subresource) text = `${text} with subresource ${goQuote(entry.subresource)}`;
  if (entry.operation === 'Update') text = `${text} using ${entry.apiVersion ?? ''}`;
  return text;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const only = conflicts[0] as Conflict;
    return `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${pathString(only.path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const path of byManager.get(manager) ?? []) lines.push(`- ${path}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict' as const,
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return applyConflict(conflictMessage(conflicts), causes);
}
