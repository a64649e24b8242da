// What yaml-docs.test.mjs needs, bundled with one copy of @lezer/common.
export { TreeFragment } from "@lezer/common";
export { parser as wholeParser } from "@lezer/yaml";
export { yamlStream } from "../src/yaml-docs";
