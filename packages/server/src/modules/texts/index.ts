/** Text messages (SMS): sending through the carrier, billing per segment, opt-outs (docs/sms.md). */
export { countSegments, type SegmentCount, type SmsEncoding } from "./segments.ts";
export { TextConversations } from "./text-conversations.ts";
export { TextQuietHours } from "./text-quiet-hours.ts";
export { TEXT_STATUSES, type TextStatus } from "./text-status.ts";
export { TextSendQueue, TextSendSweep } from "./text-sweep.ts";
export { SEND_SMS_TOOL_NAME } from "./texts.functions.ts";
export { TextsService } from "./texts.service.ts";
