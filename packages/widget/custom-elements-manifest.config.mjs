/**
 * The analyzer reads Lit's `static properties` but not its `state: true` flag, and it can take a
 * generic event helper's parameter for an event called "name". This plugin removes both (the events
 * are the `voxgate-` ones of the JSDoc), so the manifest lists only the public contract.
 */
function publicContractOnly() {
  return {
    name: "voxgate-public-contract-only",
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        for (const declaration of module.declarations ?? []) {
          if (declaration.kind !== "class") continue;
          const privateFields = new Set(
            (declaration.members ?? [])
              .filter((member) => member.privacy === "private")
              .map((member) => member.name),
          );
          declaration.attributes = declaration.attributes?.filter(
            (attribute) => !privateFields.has(attribute.fieldName),
          );
          declaration.events = declaration.events?.filter((event) => event.name.startsWith("voxgate-"));
          declaration.members = declaration.members?.filter((member) => member.privacy !== "private");
        }
      }
    },
  };
}

export default {
  globs: ["src/voxgate-chat.component.ts", "src/voxgate-chat.ts"],
  outdir: ".",
  litelement: true,
  plugins: [publicContractOnly()],
};
