/** The public widget API (GraphQL types and fields in `widget.schema.ts`). */
export { WidgetService } from "./widget.service.ts";
