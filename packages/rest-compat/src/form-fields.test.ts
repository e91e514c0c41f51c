import { describe, expect, it } from "vitest";
import { nestFields } from "./form-fields.ts";

const nest = (form: string) => nestFields(new URLSearchParams(form));

describe("nestFields", () => {
  it("nests bracketed names into objects and lists, the last repeated value winning", () => {
    expect(nest("a=1&links[0][link]=x&links[1][link]=y&variables[name]=Ada&tags[]=p&tags[]=q&a=2")).toEqual({
      value: {
        a: "2",
        links: [{ link: "x" }, { link: "y" }],
        variables: { name: "Ada" },
        tags: ["p", "q"],
      },
    });
  });

  it("keeps names that are not bracketed pairs as plain fields", () => {
    expect(nest("a[b=1&c]=2&[d]=3")).toEqual({ value: { "a[b": "1", "c]": "2", "[d]": "3" } });
  });

  it("refuses prototype keys without touching any prototype", () => {
    for (const form of [
      "__proto__[x]=1",
      "a[__proto__][x]=1",
      "a[constructor][prototype][x]=1",
      "a[toString][x]=1",
    ]) {
      const result = nest(form);
      if (form.startsWith("a[toString]")) {
        expect(result).toEqual({ value: { a: { toString: { x: "1" } } } });
      } else {
        expect(result).toMatchObject({ error: { status: 422, code: "VALIDATION_FAILED" } });
      }
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect((Object.prototype.toString as unknown as Record<string, unknown>).x).toBeUndefined();
  });

  it("refuses absurd indexes, deep nesting, mixed shapes and field floods", () => {
    expect(nest("a[1000]=1")).toMatchObject({
      error: { status: 422, fields: { "a[1000]": [expect.any(String)] } },
    });
    expect(nest("a[999]=1")).toMatchObject({ value: { a: expect.any(Array) } });
    expect(nest(`a${"[b]".repeat(9)}=1`)).toMatchObject({ error: { status: 422 } });
    expect(nest(`a${"[b]".repeat(8)}=1`)).toMatchObject({ value: {} });
    expect(nest("a=1&a[b]=2")).toMatchObject({
      error: { status: 422, fields: { "a[b]": [expect.any(String)] } },
    });
    expect(nest("a[0]=1&a[b]=2")).toMatchObject({ error: { status: 422 } });
    expect(nest("a[b]=1&a[]=2")).toMatchObject({ error: { status: 422 } });
    const flood = Array.from({ length: 1001 }, (_, index) => `f${index}=x`).join("&");
    expect(nest(flood)).toMatchObject({ error: { status: 400, code: "BAD_REQUEST" } });
  });
});
