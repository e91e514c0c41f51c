/**
 * Where services that schedule by wall-clock time read it, so tests can move time forward
 * explicitly instead of waiting (retry intervals are minutes long).
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
