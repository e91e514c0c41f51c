/**
 * The media core: the stream contract between the transports that carry a call's audio (Twilio
 * Media Streams, the browser's web call, the simulated carrier's text line) and the voice engine
 * that speaks on it, with admission by capacity and the audio codec. A leaf: it imports no other
 * module, so telephony, voice and web calls depend on it and not on each other.
 */

export { AT_CAPACITY_REASON, AT_CAPACITY_WORDS, type MediaCapacity, mediaCapacity } from "./capacity.ts";
export {
  decodeAudio,
  dtmfTones,
  encodeAudio,
  frameBytes,
  muLawToPcm,
  pcmBytes,
  pcmFromBytes,
  pcmToMuLaw,
  phoneBandLevel,
  readWav,
  resample,
  rms,
  toMuLaw8k,
  wavFile,
} from "./codec.ts";
export { MediaStreamBase } from "./media-stream-base.ts";
export {
  type MediaFormat,
  type MediaStream,
  type MediaStreamHandler,
  PHONE_FORMAT,
  type TextMedia,
  WEB_FORMAT,
} from "./stream.ts";
export { TextMediaStream } from "./text-media-stream.ts";
export {
  requestThreadSlice,
  type ThreadSliceOutcome,
  threadSchedule,
  threadSliceNs,
} from "./thread-slice.ts";
