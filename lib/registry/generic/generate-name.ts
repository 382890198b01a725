// generateName: prefix + 5 random characters from Kubernetes' unambiguous alphabet.
import { randomInt } from 'node:crypto';

/** Lowercase alphanumerics without vowels and look-alikes (k8s.io/apimachinery/pkg/util/rand). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const RANDOM_LENGTH = 5;
const MAX_NAME_LENGTH = 63;
const MAX_PREFIX_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return prefix.slice(0, MAX_PREFIX_LENGTH) + suffix;
}
