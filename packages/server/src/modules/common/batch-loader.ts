/**
 * Gathers the keys asked for in one turn of the event loop into one call of `loadMany`: a field
 * resolved for every item of a list (an inbox page's last messages) then costs one query, not one per
 * item. Nothing is kept once a batch is answered, so a later read (a subscription's next event) sees
 * the rows as they are then. Keys come from items their caller may already see: a batch that mixes
 * requests of several accounts answers each key with its own row only.
 */
export class BatchLoader<Key, Value> {
  #pending = new Map<Key, { resolve: (value: Value) => void; reject: (error: unknown) => void }[]>();

  constructor(
    private readonly loadMany: (keys: Key[]) => Promise<Map<Key, Value>>,
    private readonly missing: Value,
  ) {}

  load(key: Key): Promise<Value> {
    return new Promise((resolve, reject) => {
      // setImmediate runs after every pending promise job: sibling resolvers, even those that await
      // something first, have asked by then.
      if (this.#pending.size === 0) setImmediate(() => void this.dispatch());
      const waiting = this.#pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.#pending.set(key, [{ resolve, reject }]);
    });
  }

  private async dispatch(): Promise<void> {
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      const values = await this.loadMany([...batch.keys()]);
      for (const [key, waiting] of batch) {
        const value = values.has(key) ? (values.get(key) as Value) : this.missing;
        for (const { resolve } of waiting) resolve(value);
      }
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
    }
  }
}
