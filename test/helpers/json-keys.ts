// The member names of a JSON object text's outermost object in the order written, duplicates included: JSON.parse keeps
// only the last of a repeated name, which is how a log line with a key written twice goes unnoticed.

/** The outermost object's member names of `text` (assumed valid JSON). */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      let next = i + 1;
      while (text[next] === ' ') next++;
      if (depth === 1 && text[next] === ':') keys.push(JSON.parse(text.slice(start, i + 1)) as string);
    }
  }
  return keys;
}

/** The names written more than once in `text`'s outermost object. */
export function repeatedTopLevelKeys(text: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const key of topLevelKeys(text)) (seen.has(key) ? repeated : seen).add(key);
  return [...repeated];
}
