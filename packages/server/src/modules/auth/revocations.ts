import type { ServiceDeps } from "../../deps.ts";

/** A deleted key, a logged-out session, or every credential of a suspended account (`id` is the account's). */
export type RevokedCredential = { kind: "apiKey" | "session" | "account"; id: number };

/**
 * Calls `onRevoked` for each `credential:revoked` event, from this instance or (through Redis) any
 * other, until the returned stop function is awaited.
 */
export function listenForRevocations(
  deps: ServiceDeps,
  listener: string,
  onRevoked: (credential: RevokedCredential) => void,
): () => Promise<void> {
  const revocations = deps.pubsub.subscribe("credential:revoked")[Symbol.asyncIterator]();
  void (async () => {
    for (;;) {
      const { done, value } = await revocations.next();
      if (done) return;
      onRevoked(value as RevokedCredential);
    }
  })().catch((error: unknown) => deps.logger.error(`${listener}: revocations stopped`, { error }));
  return async () => {
    await revocations.return?.();
  };
}
