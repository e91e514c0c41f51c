/** The public widget API (GraphQL types and fields in `widget.schema.ts`). */

export { widgetVoiceEnabled } from "./voice-setting.ts";
export { type WidgetCaller, WidgetService } from "./widget.service.ts";
