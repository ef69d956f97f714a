/**
 * The ACP Registry entry in registry/<id>/ (what the registry's CI checks before Zed and JetBrains list us): the
 * registry's own schema (test/fixtures/acp-registry/agent.schema.json, copied from agentclientprotocol/registry),
 * the folder name, the npx package pinned to this package's name and version, and the icon's rules.
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";

const root = join(__dirname, "../..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
const [id] = readdirSync(join(root, "registry"));
const entryDir = join(root, "registry", id ?? "");
const entry = JSON.parse(readFileSync(join(entryDir, "agent.json"), "utf8")) as {
  id: string;
  version: string;
  distribution: { npx?: { package: string } };
};
const icon = readFileSync(join(entryDir, "icon.svg"), "utf8");

describe("ACP Registry entry", () => {
  it("is valid against the registry's agent.schema.json", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const schema = JSON.parse(readFileSync(join(root, "test/fixtures/acp-registry/agent.schema.json"), "utf8"));
    const validate = ajv.compile(schema);
    assert.ok(validate(entry), ajv.errorsText(validate.errors));
  });

  it("is named after its folder, not the Python Hermes' id, and pins this package's npx version", () => {
    assert.equal(entry.id, id);
    assert.notEqual(entry.id, "hermes-agent", "the Python Hermes claims hermes-agent");
    assert.equal(entry.version, manifest.version);
    assert.equal(entry.distribution.npx?.package, `${manifest.name}@${manifest.version}`);
  });

  it("has a 16×16 monochrome icon (every fill and stroke currentColor or none)", () => {
    assert.match(icon, /<svg[^>]*viewBox="0 0 16 16"/);
    assert.match(icon, /<svg[^>]*width="16"[^>]*height="16"/);
    const paints = [...icon.matchAll(/\b(fill|stroke)\s*[=:]\s*"?([^";\s>]+)/g)].map((m) => m[2]);
    assert.ok(paints.length > 0);
    for (const paint of paints) assert.ok(paint === "currentColor" || paint === "none", `paint ${paint}`);
    assert.doesNotMatch(icon, /<(image|script|style|linearGradient|radialGradient)\b/);
  });
});
