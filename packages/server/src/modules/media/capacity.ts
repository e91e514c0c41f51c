/** How loaded this instance's media plane is: admission control reads it before a call connects. */
export interface MediaCapacity {
  /** Whether one more live call would exceed the instance's capacity. */
  full(): boolean;
}

/** What a caller refused at the door hears (phone) or reads (browser). */
export const AT_CAPACITY_WORDS =
  "Sorry, we cannot take your call right now. Please call again later. Goodbye.";
export const AT_CAPACITY_REASON = "The server was at capacity.";

/**
 * The instance's admission rule: a new call is admitted while the live media sessions stay below
 * the configured capacity (both read at each decision: the setting may be changed at run time).
 */
export function mediaCapacity(load: () => number, capacity: () => number): MediaCapacity {
  return { full: () => load() >= capacity() };
}
