import type { ServiceDeps } from "../../deps.ts";

export type RevokedCredential = { kind: "apiKey" | "session"; id: number };

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
