// etcd key ranges: the end of a prefix range and the key right after a given key.

/** The smallest key greater than every key starting with `prefix`. */
export function prefixRangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if ((end[i] ?? 0) < 0xff) {
      end[i] = (end[i] ?? 0) + 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]); // whole keyspace
}

/** The smallest key strictly greater than `key`. */
export function keyAfter(key: string): Buffer {
  return Buffer.concat([Buffer.from(key), Buffer.from([0])]);
}
