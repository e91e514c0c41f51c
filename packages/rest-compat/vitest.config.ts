import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "rest-compat", include: ["src/**/*.test.ts"] },
});
