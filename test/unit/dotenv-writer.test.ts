import { strict as assert } from "node:assert";
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";
import { readDotenvValues, setDotenvValue } from "../../agent/config/dotenv-writer.js";
import { TempDirs } from "../helpers/temp-dirs.js";

describe("dotenv-writer: setting a key in HERMES_HOME/.env", () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it("replaces the variable where it stands (an `export` line too), drops later duplicates, keeps the rest", () => {
    const file = join(temp.make(), ".env");
    writeFileSync(file, "# keys\nexport OPENAI_API_KEY=old\n\nA=1 # note\r\nOPENAI_API_KEY=older\nB='two'\n");
    setDotenvValue(file, "OPENAI_API_KEY", "sk-new");
    assert.equal(readFileSync(file, "utf8"), "# keys\nOPENAI_API_KEY=sk-new\n\nA=1 # note\nB='two'\n");
    assert.deepEqual(readDotenvValues(file), { OPENAI_API_KEY: "sk-new", A: "1", B: "two" });
  });

  it("writes values dotenv reads back unchanged, whatever characters they hold", () => {
    const file = join(temp.make(), ".env");
    for (const value of ["plain-key_1.2:3+/=", "has#hash", "has space", "it's", 'say "hi"']) {
      setDotenvValue(file, "K", value);
      assert.equal(parse(readFileSync(file, "utf8")).K, value, value);
    }
    assert.throws(() => setDotenvValue(file, "K", "a\nb"), /cannot span lines/);
    assert.throws(() => setDotenvValue(file, "K", `it's "both"`), /both kinds of quote/);
    assert.throws(() => setDotenvValue(file, "not a name", "x"), /not a variable name/);
  });

  it("creates the file and its folder with mode 0600, and narrows an existing file to 0600", () => {
    const home = join(temp.make(), "new-home");
    const file = join(home, ".env");
    setDotenvValue(file, "K", "v");
    assert.equal(statSync(file).mode & 0o777, 0o600);
    chmodSync(file, 0o644);
    setDotenvValue(file, "K", "w");
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it("writes through a link to where it points, leaving the link in place", () => {
    const dir = temp.make();
    const real = join(dir, "real.env");
    writeFileSync(real, "A=1\n");
    symlinkSync(real, join(dir, ".env"));
    setDotenvValue(join(dir, ".env"), "K", "v");
    assert.equal(readFileSync(real, "utf8"), "A=1\nK=v\n");
  });
});
