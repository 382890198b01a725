import { durationNanos, microTimeNanos, timeSeconds } from './json-time';

describe('timeSeconds', () => {
  it.each([
    ['2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29, 23, 59, 59) / 1000],
    ['1970-01-01T00:00:00Z', 0],
    ['1969-12-31T23:59:59Z', -1],
    ['2024-01-02T03:04:05.999999Z', Date.UTC(2024, 0, 2, 3, 4, 5) / 1000], // fractions do not round up
    ['2024-01-02T05:04:05+02:00', Date.UTC(2024, 0, 2, 3, 4, 5) / 1000], // offsets through Date.parse
    ['0050-01-01T00:00:00Z', Date.parse('0050-01-01T00:00:00Z') / 1000], // not 1950
  ])('%s', (text, seconds) => {
    expect(timeSeconds(text)).toBe(seconds);
  });

  it('treats empty, unparseable and non-string values as the zero time', () => {
    expect([timeSeconds(''), timeSeconds('yesterday'), timeSeconds(null), timeSeconds(5)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('microTimeNanos', () => {
  it('keeps microseconds and drops finer digits', () => {
    expect([
      microTimeNanos('2024-01-02T03:04:05.123456Z'),
      microTimeNanos('2024-01-02T03:04:05.1234567Z'),
      microTimeNanos('2024-01-02T03:04:05.5Z'),
      microTimeNanos('2024-01-02T03:04:05Z'),
    ]).toEqual([123456000, 123456000, 500000000, 0]);
  });
});

describe('durationNanos', () => {
  it.each([
    ['1m30s', 90e9],
    ['500ms', 5e8],
    ['-2h', -7200e9],
    ['1.5s', 1.5e9],
    ['0s', 0],
    ['soon', 0],
  ])('%s', (text, nanos) => {
    expect(durationNanos(text)).toBe(nanos);
  });
});
