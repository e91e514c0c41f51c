/** The `<voxgate-chat>` widget lands here in its own issue; the package exists so the workspace is complete. */
export const WIDGET_TAG_NAME = "voxgate-chat";
