/** Whether the assistant's widget settings let visitors call it from the website (`voice`, off by default). */
export function widgetVoiceEnabled(widgetSettings: unknown): boolean {
  return (
    typeof widgetSettings === "object" &&
    widgetSettings !== null &&
    (widgetSettings as Record<string, unknown>).voice === true
  );
}
