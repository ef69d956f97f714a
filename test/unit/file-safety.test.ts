import { strict as assert } from "node:assert";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { readBlockedError, writeDeniedError } from "../../agent/security/file-safety.js";
import { FileToolWorkspace } from "../helpers/file-tool-workspace.js";

describe("file tools", () => {
  const workspace = new FileToolWorkspace();
  let root: string;
  let userHome: string;
  let hermesHome: string;
  beforeEach(() => ({ root, userHome, hermesHome } = workspace.setUp()));
  afterEach(() => workspace.cleanup());

  describe("file safety rules", () => {
    it("denies Hermes state, token stores and the root of a profile", () => {
      const profile = join(hermesHome, "profiles", "work");
      mkdirSync(profile, { recursive: true });
      const deny = (p: string, home = hermesHome) => writeDeniedError(p, { home: userHome, hermesHome: home });
      for (const p of ["state.db", "sessions/x.json", "mcp-tokens/t.json", "pairing/p", ".anthropic_oauth.json"].concat(
        "cache/scan-verdicts.json",
      )) {
        assert.match(deny(join(hermesHome, p)) ?? "", /protected system\/credential file/, p);
      }
      assert.match(deny(join(hermesHome, ".env"), profile) ?? "", /protected/, "the root .env under a profile");
      assert.match(deny(join(profile, "state.db")) ?? "", /protected/, "another profile's state");
      assert.equal(deny(join(hermesHome, "SOUL.md")), undefined);
      assert.equal(deny(join(userHome, "project/file.ts")), undefined);
      assert.match(
        writeDeniedError(join(userHome, ".aws/credentials"), { home: userHome, hermesHome, verb: "Delete" }) ?? "",
        /^Delete denied: /,
      );
    });

    it("applies the four read-deny rules in order", () => {
      const block = (p: string) => readBlockedError(p, { hermesHome, home: userHome });
      assert.match(block(join(hermesHome, "skills/.hub/index-cache/x.json")) ?? "", /internal Hermes cache file/);
      assert.match(
        block(join(hermesHome, ".env")) ?? "",
        /Hermes credential store/,
        "credential rule before the .env rule",
      );
      assert.match(block(join(hermesHome, "mcp-tokens")) ?? "", /MCP token directory/);
      assert.match(block(join(hermesHome, "mcp-tokens/github.json")) ?? "", /MCP token file/);
      assert.match(block(join(root, "app/.ENV.local")) ?? "", /secret-bearing environment file/);
      for (const ok of [".env.example", ".env.sample", "config.yaml"])
        assert.equal(block(join(root, ok)), undefined, ok);
      for (const p of [
        ".ssh/id_rsa",
        ".ssh/config",
        ".aws/credentials",
        ".gnupg/private-keys-v1.d/k.key",
        ".config/gh/hosts.yml",
        ".netrc",
        ".git-credentials",
        ".docker/config.json",
        ".kube/config",
        ".npmrc",
        ".pypirc",
      ]) {
        assert.match(block(join(userHome, p)) ?? "", /holds credentials .* never read, in any mode/, p);
      }
      assert.match(
        block(join(root, "backup/id_ed25519")) ?? "",
        /holds credentials/,
        "a private key is one wherever it lies",
      );
      assert.match(block(join(hermesHome, "auth.json")) ?? "", /Hermes credential store/);
      for (const ok of [".ssh-notes.txt", ".docker/daemon.json", ".config/ghostty"])
        assert.equal(block(join(userHome, ok)), undefined, ok);
    });
  });
});
