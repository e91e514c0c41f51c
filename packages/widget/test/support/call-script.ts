/** What the fake microphone says on a web call, in the tone speech the fake speech-to-text server reads back. */
export const SPOKEN_ON_CALL = "hello there";
/** What the espeak-ng microphone says (web-call-speech.test.ts); the speech fakes get it as their script. */
export const ESPEAK_ON_CALL = "please book a table for two";
