// Pins formatAge to kubectl's HumanDuration buckets.
import { formatAge } from './age';

const NOW = new Date('2024-06-01T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

const ago = (ms: number): string => new Date(NOW.getTime() - ms).toISOString();

describe('formatAge', () => {
  it.each<[string, string | null | undefined, string]>([
    ['no timestamp', undefined, '<unknown>'],
    ['null timestamp', null, '<unknown>'],
    ['empty timestamp', '', '<unknown>'],
    ["Go's zero time", '0001-01-01T00:00:00Z', '<unknown>'],
    ['unparseable timestamp', 'yesterday', '<unknown>'],
    ['2 s in the future', ago(-2 * SECOND), '<invalid>'],
    ['1.9 s in the future (clock skew)', ago(-1900), '0s'],
    ['1 s in the future', ago(-SECOND), '0s'],
    ['now', ago(0), '0s'],
    ['0.9 s ago', ago(900), '0s'],
    ['59 s', ago(59 * SECOND), '59s'],
    ['119 s', ago(119 * SECOND), '119s'],
    ['2 m', ago(2 * MINUTE), '2m'],
    ['2 m 5 s', ago(2 * MINUTE + 5 * SECOND), '2m5s'],
    ['9 m 59 s', ago(9 * MINUTE + 59 * SECOND), '9m59s'],
    ['10 m 30 s', ago(10 * MINUTE + 30 * SECOND), '10m'],
    ['179 m', ago(179 * MINUTE), '179m'],
    ['3 h', ago(3 * HOUR), '3h'],
    ['3 h 5 m', ago(3 * HOUR + 5 * MINUTE), '3h5m'],
    ['7 h 59 m', ago(7 * HOUR + 59 * MINUTE), '7h59m'],
    ['8 h 30 m', ago(8 * HOUR + 30 * MINUTE), '8h'],
    ['47 h', ago(47 * HOUR), '47h'],
    ['2 d', ago(2 * DAY), '2d'],
    ['2 d 5 h', ago(2 * DAY + 5 * HOUR), '2d5h'],
    ['7 d 23 h', ago(7 * DAY + 23 * HOUR), '7d23h'],
    ['8 d 5 h', ago(8 * DAY + 5 * HOUR), '8d'],
    ['729 d', ago(729 * DAY), '729d'],
    ['2 y', ago(2 * YEAR), '2y'],
    ['2 y 10 d', ago(2 * YEAR + 10 * DAY), '2y10d'],
    ['7 y 364 d', ago(7 * YEAR + 364 * DAY), '7y364d'],
    ['8 y 100 d', ago(8 * YEAR + 100 * DAY), '8y'],
    ['500 y (Go saturates at ~292 y)', '1524-06-01T12:00:00Z', '292y'],
    ['an RFC 3339 offset', '2024-06-01T13:55:00+02:00', '5m'],
  ])('%s → %s', (_name, timestamp, expected) => {
    expect(formatAge(timestamp, NOW)).toBe(expected);
  });
});
