// --token-auth-file: Kubernetes' static token CSV (`token,user,uid[,"group1,group2"]`), read once at start-up.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Logger } from 'pino';
import type { UserInfo } from '../../apimachinery/user';
import { goPathError } from '../go-path-error';

/** Token → user. Start-up errors read as kube-apiserver's (a short row, an unreadable file, a CSV syntax error). */
export function loadTokenFile(path: string, log: Logger): Map<string, UserInfo> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(goPathError(err));
  }
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, relax_quotes: false }) as string[][];
  } catch (err) {
    throw new Error(`token file '${path}' is not valid CSV: ${(err as Error).message}`);
  }
  const tokens = new Map<string, UserInfo>();
  let recordNum = 0;
  for (const record of records) {
    if (record.length < 3)
      throw new Error(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    recordNum++;
    const [token = '', name = '', uid = ''] = record;
    if (token === '') {
      log.warn(`empty token has been found in token file '${path}', record number '${recordNum}'`);
      continue;
    }
    if (tokens.has(token))
      log.warn(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    // Go's strings.Split: an empty fourth column is one empty group, as kube-apiserver reads it.
    const groups = record.length >= 4 ? (record[3] ?? '').split(',') : [];
    tokens.set(token, Object.freeze({ name, uid, groups: Object.freeze(groups) }));
  }
  return tokens;
}
