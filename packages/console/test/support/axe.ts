import axe from "axe-core";
import { expect } from "vitest";
import { commands } from "vitest/browser";

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA: what issue #33 asks every screen to pass. */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * The serious and critical violations axe finds in the console now, as readable lines, each starting
 * with `where` (the screen or state looked at) when given.
 */
export async function seriousViolations(where?: string): Promise<string[]> {
  const results = await axe.run(document.querySelector("voxgate-console")!, {
    runOnly: { type: "tag", values: WCAG_AA },
    resultTypes: ["violations"],
  });
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${where ? `${where}: ` : ""}${violation.id} (${violation.impact}) at ${violation.nodes
          .map((node) => JSON.stringify(node.target))
          .join(", ")}: ${violation.nodes[0]?.failureSummary ?? ""}`,
    );
}

/** The serious violations in the light theme and in the dark one (light again after). */
export async function violationsInBothThemes(): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await commands.setColorScheme(scheme);
    found.push(...(await seriousViolations(scheme)));
  }
  await commands.setColorScheme("light");
  return found;
}

/** axe finds nothing serious on the page in the light theme, nor in the dark one. */
export async function expectAccessibleInBothThemes(): Promise<void> {
  expect(await violationsInBothThemes()).toEqual([]);
}
