/** What the fake microphone says on a web call, in the tone speech the fake speech-to-text server reads back. */
export const SPOKEN_ON_CALL = "hello there";
